import AppStoreClient
import AppStoreModels
import AppStoreVerification
import Crypto
import Foundation
import Logging
import StoreKeeperAPI
import StoreKeeperStorage
import StoreKeeperWire
import SubscriptionEngine
import SubscriptionMetrics

/// App Store Server Notifications: V2 verified by the claimed app's verifier, V1 by its shared secret.
extension IntakeService {
    // MARK: - Notifications

    /// `POST /v1/notifications/appstore`: V2 (`signedPayload`) or V1 JSON. Returns the outcome once committed.
    func ingestNotification(_ body: Data) async throws -> ApplyOutcome {
        if let signedPayload = NotificationRouting.signedPayload(inBody: body) {
            return try await ingestV2(signedPayload)
        }
        guard let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] else {
            throw ServiceError.invalid(.invalidJSON, "the body is not a JSON object")
        }
        if let signedPayload = object["signedPayload"] as? String { return try await ingestV2(signedPayload) }
        if object["notification_type"] != nil { return try await ingestV1(body, object: object) }
        throw ServiceError.invalid(
            .unrecognizedNotification, "expected {\"signedPayload\"} (V2) or a V1 body with notification_type")
    }

    /// A V2 notification: Apple's post (`cause` `notification`), or one found in Apple's notification history
    /// that never arrived (`reconciliation`); either way its UUID is claimed once.
    func ingestV2(_ signedPayload: String, cause: EventCause = .notification) async throws -> ApplyOutcome {
        // Split the token once (its header decoded once per signing certificate), route by the bundle id its
        // not yet trusted payload claims, then verify it with that app's verifier and expectations. A token
        // that does not split is routed from its text, and its verifier names what is wrong with it.
        let split = Result { try CompactJWS(signedPayload, headerCache: headers) }
        let claimed: String?
        if case .success(let jws) = split {
            claimed = NotificationRouting.bundleID(payload: jws.payload)
        } else {
            claimed = NotificationRouting.bundleID(token: signedPayload)
        }
        guard let bundleID = claimed else {
            throw ServiceError.invalid(.malformed, "signedPayload is not a compact JWS with a notification payload")
        }
        let app = try app(bundleID)
        let notification: VerifiedNotification
        do {
            let jws = try split.get()
            // Apple's chain only: a notification needs no key, so Xcode-signed ones are never accepted.
            notification = try await app.signedData.verifyNotification(jws)
        } catch let error as VerificationError {
            ServerMetrics.verificationFailure(code: error.code.rawValue)
            throw ServiceError.unverifiable(APIErrorCode(error.code), "signedPayload: \(error.reason)")
        }
        let type =
            notification.payload.notificationType.rawValue
            + (notification.payload.subtype.map { "/\($0.rawValue)" } ?? "")
        if notification.payload.notificationType == .rescindConsent,
            let appTransactionID = notification.appTransaction?.appTransactionId
        {
            return try await rescindConsent(
                notification, appTransactionID: appTransactionID, app: app, bundleID: bundleID, rawBody: signedPayload,
                cause: cause, type: type)
        }
        var evidence = EvidenceSet()
        evidence.add(
            notificationV2: notification.payload, transaction: notification.transaction,
            renewalInfo: notification.renewalInfo)
        var detail: [String: EventValue] = ["notification_type": .string(type)]
        if let id = notification.transaction?.transactionId { detail["transaction_id"] = .string(id) }
        let write = EvidenceWrite(
            project: app.project, bundleID: bundleID, appUserID: nil, kind: "notification_v2",
            rawBody: signedPayload, evidence: evidence,
            originalTransactionIDs: Self.originals(evidence), cause: cause,
            notificationID: notification.payload.notificationUUID, eventType: type, detail: detail)
        let outcome = try await store.apply(write, policy: policy, now: now())
        ServerMetrics.notification(type: type, outcome: outcome.status)
        return outcome
    }

    /// RESCIND_CONSENT: a parent or guardian withdrew consent for a minor. Every subscription and purchase whose
    /// transactions name the notification's app transaction gets a ``ConsentRescission`` (rule
    /// `consent-rescinded-withholds-access`), one write per owning subscriber, each claiming its own id derived from
    /// the notification's UUID so a redelivery applies each once; with no such purchase it is only recorded. The
    /// owners' attributes are removed.
    func rescindConsent(
        _ notification: VerifiedNotification, appTransactionID: String, app: AppRuntime, bundleID: String,
        rawBody: String, cause: EventCause, type: String
    ) async throws -> ApplyOutcome {
        let owners = try await store.originals(appTransactionID: appTransactionID, in: app.project)
        let uuid = notification.payload.notificationUUID
        let at = notification.payload.signedDate ?? now()
        var outcome = ApplyOutcome.recorded
        let groups = owners.isEmpty ? [("", [String]())] : owners.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        for (index, (_, originals)) in groups.enumerated() {
            var evidence = EvidenceSet()
            for original in originals {
                evidence.insert(
                    ConsentRescission(
                        originalTransactionID: original, appTransactionID: appTransactionID, rescindedAt: at))
            }
            let write = EvidenceWrite(
                project: app.project, bundleID: bundleID, appUserID: nil, kind: "notification_v2", rawBody: rawBody,
                evidence: evidence, originalTransactionIDs: originals, cause: cause,
                notificationID: index == 0 ? uuid : "\(uuid)/\(index)", eventType: type,
                detail: ["notification_type": .string(type), "app_transaction_id": .string(appTransactionID)])
            let result = try await store.apply(write, policy: policy, now: now())
            if index == 0 { outcome = result }
        }
        // The minor's attributes are personal data the app set: they go with the consent (again on a redelivery,
        // which finds none).
        for owner in owners.keys.sorted() {
            _ = try await attributes.deleteAttributes(appUserKey: owner, keepingServerSet: false)
        }
        ServerMetrics.notification(type: type, outcome: outcome.status)
        return outcome
    }

    /// A V1 notification: `body` for its typed fields, `object` (the same body, already parsed) to store it
    /// verbatim minus the shared secret.
    func ingestV1(_ body: Data, object: [String: Any]) async throws -> ApplyOutcome {
        let notification: NotificationV1Body
        do { notification = try JSONDecoder().decode(NotificationV1Body.self, from: body) } catch {
            throw ServiceError.invalid(.malformed, "V1 notification: \(error)")
        }
        let app = try app(notification.bid ?? "")
        guard let expected = app.configuration.sharedSecret, let given = notification.password,
            ConstantTime.equal(expected, given)
        else {
            throw ServiceError(
                .unauthenticated, .sharedSecretMismatch,
                "V1 notification password does not match the app's shared secret")
        }
        // V1 is frozen (Apple adds types to V2 only): an unknown V1 type is not Apple's.
        if case .unknown(let raw) = notification.notificationType {
            throw ServiceError.unverifiable(
                .unknownNotificationType, "V1 notification_type \"\(raw.prefix(100))\" is not one Apple sends")
        }
        var stripped = object
        stripped["password"] = nil
        let raw = String(
            decoding: (try? JSONSerialization.data(withJSONObject: stripped, options: [.sortedKeys])) ?? Data(),
            as: UTF8.self)
        var evidence = EvidenceSet()
        var withoutSecret = notification
        withoutSecret.password = nil
        evidence.add(notificationV1: withoutSecret)
        let digest = HexDigest.sha256(raw)
        let write = EvidenceWrite(
            project: app.project, bundleID: app.configuration.bundleID, appUserID: nil,
            kind: "notification_v1", rawBody: raw, evidence: evidence,
            originalTransactionIDs: Self.originals(evidence), cause: .notification, notificationID: "v1-\(digest)",
            eventType: "V1/" + notification.notificationType.rawValue)
        let outcome = try await store.apply(write, policy: policy, now: now())
        ServerMetrics.notification(type: write.eventType, outcome: outcome.status)
        return outcome
    }
}
