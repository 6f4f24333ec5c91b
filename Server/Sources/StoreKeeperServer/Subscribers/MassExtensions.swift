import AppStoreClient
import AppStoreModels
import Foundation
import StoreKeeperAPI
import StoreKeeperStorage
import StoreKeeperWire

/// Support extending every active subscriber of a product at once (Apple's mass extension): the request is checked
/// as Apple would (a product of the catalog that renews, 1–90 days, a reason, storefront codes), sent to Apple for
/// the caller's app, and kept so its status can be asked again; each subscription Apple extends reaches the server
/// as Apple's `RENEWAL_EXTENDED` notification and applies as any other.
struct MassExtensions: Sendable {
    let store: any MassExtensionStore
    let intake: IntakeService

    /// The most storefronts one request may name.
    static let maximumStorefronts = 200

    /// Asks Apple to extend `body.productID`'s active subscribers of the caller's app.
    /// - Throws: `unknown_product`, `invalid_extension` or `missing_field` naming the field and value;
    ///   `api_credentials_missing`; Apple's refusal or unavailability. Nothing is kept unless Apple accepted it.
    func request(_ body: MassExtensionPost, bundleID: String) async throws -> MassExtension {
        let (days, reason, code) = try SupportExtensions.validated(ExtensionPost(days: body.days, reason: body.reason))
        let productID = try renewing(body.productID)
        let storefronts = try Self.storefronts(body.storefronts)
        let app = try intake.apps.app(bundleID)
        let credentials = try Self.credentials(app)
        let id = UUID().uuidString.lowercased()
        var request = MassExtendRenewalDateRequest()
        request.extendByDays = days
        request.extendReasonCode = code
        request.requestIdentifier = id
        request.productId = productID
        request.storefrontCountryCodes = storefronts.isEmpty ? nil : storefronts
        do {
            _ = try await intake.client.extendRenewalDatesForAll(
                request, credentials: credentials, environment: Self.environment(app))
        } catch let error as AppStoreClientError where error.status == 400 {
            throw ServiceError.invalid(.invalidExtension, "Apple refused the mass extension: \(error.reason)")
        } catch let error as AppStoreClientError {
            throw ServiceError.apple(error, call: "Extend Subscription Renewal Dates for All Active Subscribers")
        }
        let record = MassExtensionRecord(
            project: app.project, id: id, bundleID: bundleID, productID: productID, days: days, reason: reason,
            storefronts: storefronts, requestedAt: intake.now())
        try await store.recordMassExtension(record)
        return Self.answer(record, status: nil)
    }

    /// The caller's project's request `id`, as Apple reports it now.
    /// - Throws: `extension_not_found`; Apple's unavailability.
    func status(_ id: String, bundleID: String) async throws -> MassExtension {
        let project = try intake.apps.project(bundleID)
        guard let record = try await store.massExtension(id.lowercased(), in: project) else {
            throw ServiceError(
                .notFound, .extensionNotFound, "this project made no mass extension \(UntrustedText.quoted(id))")
        }
        let app = try intake.apps.app(record.bundleID)
        let status: MassExtendRenewalDateStatusResponse
        do {
            status = try await intake.client.massExtensionStatus(
                productID: record.productID, requestIdentifier: record.id, credentials: try Self.credentials(app),
                environment: Self.environment(app))
        } catch let error as AppStoreClientError where error.status == 404 {
            // Apple has not registered the request yet: it is queued, not complete.
            return Self.answer(record, status: nil)
        } catch let error as AppStoreClientError {
            throw ServiceError.apple(error, call: "Get Status of Subscription Renewal Date Extensions")
        }
        return Self.answer(record, status: status)
    }

    /// `productID` when the catalog has it as an auto-renewable subscription.
    func renewing(_ productID: String?) throws(ServiceError) -> String {
        guard let productID else { throw .invalid(.missingField, "product_id is required") }
        let renewing = intake.engine.configuration.subscriptionGroups.keys
        guard renewing.contains(productID) else {
            throw .invalid(
                .unknownProduct,
                "product_id \(UntrustedText.quoted(productID)) is not an auto-renewable subscription of the catalog: "
                    + renewing.sorted().joined(separator: ", "))
        }
        return productID
    }

    /// The storefront codes, each three capital letters, at most ``maximumStorefronts`` and none twice.
    static func storefronts(_ codes: [String]?) throws(ServiceError) -> [String] {
        let codes = codes ?? []
        guard codes.count <= maximumStorefronts else {
            throw .invalid(.invalidExtension, "storefronts has \(codes.count) codes (at most \(maximumStorefronts))")
        }
        for code in codes where !(code.utf8.count == 3 && code.utf8.allSatisfy { (0x41...0x5A).contains($0) }) {
            throw .invalid(
                .invalidExtension,
                "storefronts \(UntrustedText.quoted(code)) is not a storefront code (three capital letters: USA)")
        }
        guard Set(codes).count == codes.count else { throw .invalid(.invalidExtension, "storefronts repeats a code") }
        return codes
    }

    /// The app's App Store Server API credentials.
    static func credentials(_ app: AppRuntime) throws(ServiceError) -> AppStoreClient.Credentials {
        guard let credentials = app.credentials else {
            throw ServiceError(
                .missingConfiguration, .apiCredentialsMissing,
                "a mass extension needs App Store Server API credentials for \(app.configuration.bundleID)")
        }
        return credentials
    }

    /// Where the app's subscribers are: the sandbox for an app configured for it, else production.
    static func environment(_ app: AppRuntime) -> AppStoreClient.ServerAPIEnvironment {
        app.configuration.environment?.lowercased() == "sandbox" ? .sandbox : .production
    }

    /// The answer for `record`, with Apple's `status` when it has one.
    static func answer(_ record: MassExtensionRecord, status: MassExtendRenewalDateStatusResponse?) -> MassExtension {
        MassExtension(
            id: record.id, productID: record.productID, days: record.days, reason: record.reason,
            storefronts: record.storefronts, requestedAt: AppleDateFormat.rfc3339(record.requestedAt),
            complete: status?.complete ?? false, completedAt: status?.completeDate.map(AppleDateFormat.rfc3339),
            succeededCount: status?.succeededCount.map(Int.init), failedCount: status?.failedCount.map(Int.init))
    }
}
