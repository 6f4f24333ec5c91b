import Foundation
import Hummingbird
import StoreKeeperAPI
import StoreKeeperStorage

/// The attributes room: the app (or the owner's backend) sets and removes a customer's attributes.
struct AttributeRoutes: APIFeature {
    let store: any AttributeStore
    let apps: AppDirectory
    let now: @Sendable () -> Date
    /// The bound on customers without evidence holding app-set attributes.
    let guests: GuestBudget

    func register(_ handlers: inout APIHandlers) {
        handlers.on(.postAttributes) { call in
            let appUserID = try CustomerID.normalized(try call.parameter(.appUserID))
            let project = try apps.project(call.bundleID)
            let changes = try AttributeRules.checked(try await call.decode(AttributesPost.self).attributes)
            let key = project.key(appUserID)
            if !call.writesAsOwner, changes.values.contains(where: { $0 != nil }),
                try await store.isNewGuest(appUserKey: key)
            {
                try await guests.admit(project, store: store)
            }
            do {
                let attributes = try await store.setAttributes(
                    changes, appUserKey: key, maximumCustom: AttributeRules.maximumCustom,
                    now: now(), source: call.writesAsOwner ? .server : .client)
                return try call.json(
                    AttributesResponse(attributes: AttributeRules.visible(attributes, personal: call.isSecret)))
            } catch let protected as AttributeSetByServer {
                throw APIError(
                    .forbidden, .secretKeyRequired,
                    "attribute \"\(protected.names.joined(separator: "\", \""))\" was set with a secret key; "
                        + "only a secret key with the support or admin scope may change or remove it")
            } catch let limit as AttributeLimitExceeded {
                throw APIError.badRequest(
                    .tooManyAttributes,
                    "the customer would hold \(limit.count) custom attributes; at most \(limit.maximum) (remove some with null)"
                )
            }
        }
        handlers.on(.deleteAttributes) { call in
            let appUserID = try CustomerID.normalized(try call.parameter(.appUserID))
            // The app (a public key, or a read key) removes what the app set; what the owner's backend set stays.
            _ = try await store.deleteAttributes(
                appUserKey: try apps.project(call.bundleID).key(appUserID), keepingServerSet: !call.writesAsOwner)
            return Response(status: .noContent)
        }
    }
}
