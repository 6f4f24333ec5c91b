import AppStoreClient
import AppStoreModels
import AppStoreVerification
import Crypto
import Foundation
import Logging
import StoreKeeperAPI
import StoreKeeperStorage
import SubscriptionEngine
import SubscriptionMetrics

/// The server's logic, apart from HTTP: verify evidence, store it with its events in one transaction, and
/// answer from the engine at the server's clock.
public struct SubscriberService: Sendable {
    let store: any Store
    let apps: [String: AppRuntime]
    let engine: SubscriptionEngine
    let policy: TransferPolicy
    let client: AppStoreClient
    let localReceipts: Bool
    let now: @Sendable () -> Date
    let documents: SubscriberDocumentCache
    /// Every subscriber's timelines, kept for metric queries.
    let timelineCache: MetricTimelineCache
    /// The currency metrics also report money in, with its rates (configuration `reportingCurrency`).
    let reporting: ReportingCurrency?
    /// Where failures that do not fail the request are reported (outside a request; see ``log``).
    let logger: Logger

    /// The logger for a line: the current request's (with its request id) when there is one.
    var log: Logger { RequestScope.logger ?? logger }
    /// Decoded JWS headers of notifications, split before their app (and its verifier) is known.
    let headers = JWSHeaderCache()
    /// The newest refused notifications, for the dashboard's notification log (this process's, memory only).
    let refusals = RefusalLog()

    init(
        store: any Store, apps: [String: AppRuntime], engine: SubscriptionEngine,
        policy: TransferPolicy, client: AppStoreClient, localReceipts: Bool, logger: Logger,
        answerCacheBudget: Int = CacheBudget.standard.answers,
        timelineCacheBudget: Int = CacheBudget.standard.timelines, reporting: ReportingCurrency? = nil,
        now: @escaping @Sendable () -> Date
    ) {
        self.reporting = reporting
        self.store = store
        self.apps = apps
        self.engine = engine
        self.policy = policy
        self.client = client
        self.localReceipts = localReceipts
        self.now = now
        self.logger = logger
        documents = SubscriberDocumentCache(changes: store.changes, budget: answerCacheBudget)
        timelineCache = MetricTimelineCache(changes: store.changes, budget: timelineCacheBudget)
    }

    func app(_ bundleID: String) throws(ServiceError) -> AppRuntime {
        guard let app = apps[bundleID] else {
            throw ServiceError(.unknownApp, "unknown_app", "no app \(bundleID) is configured")
        }
        return app
    }

    /// The project of a configured app: the boundary no read or write crosses.
    func project(_ bundleID: String) throws(ServiceError) -> ProjectScope { try app(bundleID).project }

    /// Whether `id` is an anonymous id in the SDK's form, `$anonymous:` and a random UUID: an id nobody can guess.
    static func isAnonymousID(_ id: String) -> Bool {
        id.hasPrefix(Self.anonymousPrefix) && UUID(uuidString: String(id.dropFirst(Self.anonymousPrefix.count))) != nil
    }

    /// What the SDK's anonymous ids start with.
    static let anonymousPrefix = "$anonymous:"

    static func originals(_ evidence: EvidenceSet) -> [String] {
        Array(
            Set(evidence.transactions.map(\.originalTransactionID)).union(
                evidence.renewals.map(\.originalTransactionID))
        ).sorted()
    }

    /// The size and use of every cache the server keeps: encoded answers, the store's, and metric timelines.
    var cacheUsage: [String: CacheUsage] {
        var usage = store.cacheUsage
        usage["answers"] = documents.usage
        usage["timelines"] = timelineCache.usage
        return usage
    }

    // MARK: - Client evidence

    /// `POST /v1/receipts` (and an import by receipt: `cause` `import`).
    func postReceipt(
        appUserID: String, receipt: String, deviceID: String?, bundleID: String, cause: EventCause = .client
    ) async throws -> [UInt8] {
        let appUserID = try CustomerID.normalized(appUserID)
        let deviceID = try deviceID.map { id throws(ServiceError) in try CustomerID.normalized(id, field: "device_id") }
        let app = try app(bundleID)
        guard let der = Base64.decode(receipt, ignoringWhitespace: true), !der.isEmpty else {
            throw ServiceError.invalid("invalid_receipt", "receipt is not base64")
        }
        var evidence = EvidenceSet()
        if localReceipts {
            do {
                let verified = try await app.receipts.verify(der: der)
                evidence.add(receipt: verified.receiptInfo)
            } catch let error as VerificationError {
                ServerMetrics.verificationFailure(code: error.code.rawValue)
                throw ServiceError.unverifiable(error.code.rawValue, "receipt: \(error.reason)")
            }
        } else {
            let response: VerifyReceiptResponse
            do {
                response = try await client.verifyReceipt(receipt, sharedSecret: app.configuration.sharedSecret)
            } catch let error as AppStoreClientError {
                switch error.status {
                case 21002?, 21003?:
                    throw ServiceError.unverifiable("receipt_rejected", "verifyReceipt: \(error.reason)")
                case 21004?:
                    throw ServiceError(
                        .appleRefused, "shared_secret_mismatch",
                        "verifyReceipt: the configured shared secret does not match")
                case 21010?: throw ServiceError.unverifiable("account_not_found", "verifyReceipt: \(error.reason)")
                default: throw ServiceError.apple(error, call: "verifyReceipt")
                }
            }
            guard response.receipt?.bundleId == bundleID else {
                throw ServiceError.unverifiable(
                    "unexpected_bundle_id",
                    "receipt bundle_id is \"\(response.receipt?.bundleId ?? "absent")\", expected \"\(bundleID)\"")
            }
            evidence.add(verifyReceiptResponse: response)
        }
        let write = EvidenceWrite(
            project: app.project, bundleID: bundleID, appUserID: appUserID, kind: "receipt", rawBody: receipt,
            evidence: evidence,
            originalTransactionIDs: Self.originals(evidence), cause: cause,
            eventType: cause == .imported ? "receipt_imported" : "receipt_posted",
            detail: ["transactions": .integer(Int64(evidence.transactions.count))].merging(
                deviceID.map { ["device_id": .string($0)] } ?? [:]
            ) { $1 })
        return try await apply(write, answerFor: appUserID)
    }

    /// `POST /v1/transactions`.
    func postTransaction(appUserID: String, signedTransaction: String, bundleID: String) async throws -> [UInt8] {
        let appUserID = try CustomerID.normalized(appUserID)
        let app = try app(bundleID)
        var evidence = EvidenceSet()
        let transaction: JWSTransactionDecodedPayload
        do {
            transaction = try await app.verifier(for: signedTransaction).verifyTransaction(signedTransaction)
        } catch let error as VerificationError {
            ServerMetrics.verificationFailure(code: error.code.rawValue)
            throw ServiceError.unverifiable(error.code.rawValue, "signed_transaction: \(error.reason)")
        }
        evidence.add(transaction: transaction)
        var cause = "signed transaction"
        if let credentials = app.credentials {
            // Fresh state from Apple: statuses of every subscription of the customer. The posted transaction is
            // verified and stored either way; what Apple did not answer, or answered with data that does not
            // verify, is logged with its reason and left out.
            do {
                let statuses = await VerifiedStatuses(
                    try await client.allSubscriptionStatuses(
                        transactionID: transaction.transactionId, credentials: credentials), app: app)
                evidence.formUnion(statuses.evidence)
                for failure in statuses.failures {
                    log.warning(
                        "a subscription status from the App Store Server API does not verify; left out",
                        metadata: [
                            "bundle_id": "\(bundleID)", "original_transaction_id": "\(failure.originalTransactionID)",
                            "reason": "\(failure.error)",
                        ])
                }
                cause = "signed transaction + subscription statuses"
            } catch {
                log.warning(
                    "Get All Subscription Statuses failed; storing the posted transaction alone",
                    metadata: [
                        "bundle_id": "\(bundleID)", "transaction_id": "\(transaction.transactionId)",
                        "reason": "\(error)",
                    ])
            }
        }
        let write = EvidenceWrite(
            project: app.project, bundleID: bundleID, appUserID: appUserID, kind: "signed_transaction",
            rawBody: signedTransaction, evidence: evidence,
            originalTransactionIDs: Self.originals(evidence), cause: .client, eventType: "transaction_posted",
            detail: [
                "transaction_id": .string(transaction.transactionId), "product_id": .string(transaction.productId),
                "source": .string(cause),
            ])
        return try await apply(write, answerFor: appUserID)
    }

    /// `POST /v1/imports` by original transaction id: the customer's subscriptions as the App Store Server API
    /// tells them now (Get All Subscription Statuses), verified and stored with cause `import`.
    func importSubscriber(appUserID: String, originalTransactionID: String, bundleID: String) async throws -> [UInt8] {
        let appUserID = try CustomerID.normalized(appUserID)
        let app = try app(bundleID)
        guard !originalTransactionID.isEmpty, originalTransactionID.utf8.count <= 64,
            originalTransactionID.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") })
        else {
            throw ServiceError.invalid(
                "invalid_original_transaction_id",
                "original_transaction_id \"\(originalTransactionID.prefix(64))\" is not a transaction id")
        }
        guard let credentials = app.credentials else {
            throw ServiceError(
                .missingConfiguration, "api_credentials_missing",
                "importing by original_transaction_id needs App Store Server API credentials for \(bundleID)")
        }
        let statuses: StatusResponse
        do {
            statuses = try await client.allSubscriptionStatuses(
                transactionID: originalTransactionID, credentials: credentials)
        } catch let error as AppStoreClientError where error.status == 404 || error.status == 400 {
            throw ServiceError.unverifiable(
                "transaction_not_found",
                "Apple knows no transaction \(originalTransactionID) for \(bundleID): \(error.reason)")
        } catch let error as AppStoreClientError {
            throw ServiceError.apple(error, call: "Get All Subscription Statuses")
        }
        let verified = await VerifiedStatuses(statuses, app: app)
        if let failure = verified.failures.first {
            let reason = (failure.error as? VerificationError).map { ($0.code.rawValue, $0.reason) }
            throw ServiceError.unverifiable(
                reason?.0 ?? "unverifiable", "subscription status: \(reason?.1 ?? "\(failure.error)")")
        }
        let evidence = verified.evidence
        let raw = verified.signed
        guard !raw.isEmpty else {
            throw ServiceError.unverifiable(
                "no_subscriptions", "Apple lists no subscription for transaction \(originalTransactionID)")
        }
        let write = EvidenceWrite(
            project: app.project, bundleID: bundleID, appUserID: appUserID, kind: "subscription_statuses",
            rawBody: raw.joined(separator: "\n"), evidence: evidence,
            originalTransactionIDs: Self.originals(evidence), cause: .imported, eventType: "subscriber_imported",
            detail: [
                "original_transaction_id": .string(originalTransactionID),
                "transactions": .integer(Int64(evidence.transactions.count)),
            ])
        return try await apply(write, answerFor: appUserID)
    }

    func apply(_ write: EvidenceWrite, answerFor appUserID: String) async throws -> [UInt8] {
        _ = try await store.apply(write, policy: policy, now: now())
        return try await subscriberDocument(appUserID: appUserID, project: write.project)
    }

    // MARK: - Notifications

    /// `POST /v1/notifications/appstore`: V2 (`signedPayload`) or V1 JSON. Returns the outcome once committed.
    func ingestNotification(_ body: Data) async throws -> ApplyOutcome {
        if let signedPayload = NotificationRouting.signedPayload(inBody: body) {
            return try await ingestV2(signedPayload)
        }
        guard let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] else {
            throw ServiceError.invalid("invalid_json", "the body is not a JSON object")
        }
        if let signedPayload = object["signedPayload"] as? String { return try await ingestV2(signedPayload) }
        if object["notification_type"] != nil { return try await ingestV1(body, object: object) }
        throw ServiceError.invalid(
            "unrecognized_notification", "expected {\"signedPayload\"} (V2) or a V1 body with notification_type")
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
            throw ServiceError.invalid("malformed", "signedPayload is not a compact JWS with a notification payload")
        }
        let app = try app(bundleID)
        let notification: VerifiedNotification
        do {
            let jws = try split.get()
            // Apple's chain only: a notification needs no key, so Xcode-signed ones are never accepted.
            notification = try await app.signedData.verifyNotification(jws)
        } catch let error as VerificationError {
            ServerMetrics.verificationFailure(code: error.code.rawValue)
            throw ServiceError.unverifiable(error.code.rawValue, "signedPayload: \(error.reason)")
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
    /// the notification's UUID so a redelivery applies each once; with no such purchase it is only recorded.
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
        ServerMetrics.notification(type: type, outcome: outcome.status)
        return outcome
    }

    /// A V1 notification: `body` for its typed fields, `object` (the same body, already parsed) to store it
    /// verbatim minus the shared secret.
    func ingestV1(_ body: Data, object: [String: Any]) async throws -> ApplyOutcome {
        let notification: NotificationV1Body
        do { notification = try JSONDecoder().decode(NotificationV1Body.self, from: body) } catch {
            throw ServiceError.invalid("malformed", "V1 notification: \(error)")
        }
        let app = try app(notification.bid ?? "")
        guard let expected = app.configuration.sharedSecret, let given = notification.password,
            Self.constantTimeEqual(Array(expected.utf8), Array(given.utf8))
        else {
            throw ServiceError(
                .unauthenticated, "shared_secret_mismatch",
                "V1 notification password does not match the app's shared secret")
        }
        // V1 is frozen (Apple adds types to V2 only): an unknown V1 type is not Apple's.
        if case .unknown(let raw) = notification.notificationType {
            throw ServiceError.unverifiable(
                "unknown_notification_type", "V1 notification_type \"\(raw.prefix(100))\" is not one Apple sends")
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

    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for index in 0..<max(a.count, b.count) {
            difference |= (index < a.count ? a[index] : 0) ^ (index < b.count ? b[index] : 0)
        }
        return difference == 0
    }

    // MARK: - Reads

    /// The subscriber document (`{request_date, request_date_ms, subscriber}`) as JSON: entitlements,
    /// subscriptions with explanations, purchases, aliases, server time. One indexed read; the engine runs only
    /// when the stored row changed or the clock crossed a date where the answer can change.
    /// Only `project`'s subscribers are read: another project's user with the same id is not seen.
    func subscriberDocument(appUserID: String, project: ProjectScope) async throws -> [UInt8] {
        let appUserID = try CustomerID.normalized(appUserID)
        let instant = now()
        let key = project.key(appUserID)
        if let body = documents.fresh(key, at: instant) {
            return SubscriberDocument.response(subscriber: body, at: instant)
        }
        let readAt = documents.readMark
        guard let snapshot = try await store.snapshot(appUserID, in: project) else {
            let empty = try SubscriberDocument.encode(
                appUserID: appUserID, aliases: [], firstSeen: nil, state: engine.evaluate(EvidenceSet(), at: instant))
            return SubscriberDocument.response(subscriber: empty, at: instant)
        }
        if let body = documents.body(for: snapshot, key: key, readAt: readAt, at: instant) {
            return SubscriberDocument.response(subscriber: body, at: instant)
        }
        let evidence = try store.decodeEvidence(snapshot)
        let body = try SubscriberDocument.encode(
            appUserID: snapshot.appUserID, aliases: snapshot.aliases, firstSeen: snapshot.createdAt,
            state: engine.evaluate(evidence, at: instant))
        documents.remember(
            body, for: snapshot, key: key, readAt: readAt, from: instant,
            until: engine.nextChange(evidence, after: instant))
        return SubscriberDocument.response(subscriber: body, at: instant)
    }

    /// Intro eligibility for products.
    func eligibility(appUserID: String, bundleID: String, productIDs: [String]) async throws -> [String: String] {
        let appUserID = try CustomerID.normalized(appUserID)
        let record = try await store.subscriber(appUserID, in: try project(bundleID))
        let state = engine.evaluate(record?.evidence ?? EvidenceSet(), at: now())
        var result: [String: String] = [:]
        for product in productIDs {
            result[product] =
                (state.introEligibility[product]
                ?? (engine.configuration.subscriptionGroups[product] == nil ? .unknown : .eligible)).rawValue
        }
        return result
    }

    /// Merges identities: `appUserID` (and its purchases) becomes an alias of `newAppUserID`.
    ///
    /// With a public key (which ships inside the app, so anyone has it) only an id nobody can guess may be merged
    /// into another: an anonymous id in the SDK's form, or an id with no evidence of its own. Merging a customer
    /// who has purchases needs the secret key, else anyone could move anyone's entitlement to themselves.
    /// - Parameter secretKey: Whether the caller used a secret key.
    func alias(appUserID: String, newAppUserID: String, bundleID: String, secretKey: Bool) async throws -> [UInt8] {
        let appUserID = try CustomerID.normalized(appUserID)
        let newAppUserID = try CustomerID.normalized(newAppUserID, field: "new_app_user_id")
        let project = try project(bundleID)
        if !secretKey, !Self.isAnonymousID(appUserID),
            let merged = try await store.subscriber(appUserID, in: project),
            !merged.evidence.transactions.isEmpty || !merged.evidence.renewals.isEmpty
        {
            throw ServiceError(
                .forbidden, "secret_key_required",
                "app_user_id has purchases of its own; merging it into another id needs a secret key (a public key "
                    + "may merge an anonymous id, $anonymous:<uuid>, or an id with no purchases)")
        }
        try await store.alias(appUserID, to: newAppUserID, in: project, bundleID: bundleID, now: now())
        return try await subscriberDocument(appUserID: newAppUserID, project: project)
    }

    /// A subscriber's events, in the caller's project.
    func events(appUserID: String, bundleID: String) async throws -> EventsResponse {
        let appUserID = try CustomerID.normalized(appUserID)
        let events = try await store.events(appUserID, in: try project(bundleID), limit: 1000).map { event in
            SubscriberEvent(
                id: event.id, createdAt: event.createdAt, type: event.type, cause: event.cause.rawValue,
                causeID: event.causeID,
                evidenceID: event.evidenceID, detail: event.detail)
        }
        return EventsResponse(events: events)
    }

    /// Signs a promotional offer: Apple's legacy fields (ECDSA P-256 SHA-256 over the U+2063-joined fields) and,
    /// with an issuer id, the same offer and nonce as a compact JWS. Given a customer, also Apple's introductory
    /// offer eligibility JWS for the product, saying what the engine decides for that customer.
    func signOffer(
        bundleID: String, productID: String, offerID: String, appAccountToken: String?, appUserID: String? = nil,
        transactionID: String? = nil
    ) async throws -> OfferSignature {
        let app = try app(bundleID)
        guard let key = app.offerKey, let keyID = app.configuration.offerKeyID else {
            throw ServiceError(
                .missingConfiguration, "offer_key_missing", "no promotional offer key is configured for \(bundleID)")
        }
        guard !productID.isEmpty, !offerID.isEmpty else {
            throw ServiceError.invalid("invalid_offer", "product_id and offer_id are required")
        }
        if let token = appAccountToken, UUID(uuidString: token) == nil {
            throw ServiceError.invalid("invalid_app_account_token", "app_account_token must be a UUID")
        }
        let nonce = UUID().uuidString.lowercased()
        let timestamp = AppleDateFormat.milliseconds(now())
        let payload = [
            bundleID, keyID, productID, offerID, appAccountToken?.lowercased() ?? "", nonce, String(timestamp),
        ]
        .joined(separator: "\u{2063}")
        let signature = try key.signature(for: Array(payload.utf8))
        var answer = OfferSignature(
            keyID: keyID, nonce: nonce, timestamp: timestamp,
            signature: Data(signature.derRepresentation).base64EncodedString())
        guard let issuerID = app.configuration.issuerID else { return answer }
        // Apple's JWS forms: the same offer and nonce (one nonce: whichever form is used spends it).
        let base: [String: Any] = ["iss": issuerID, "bid": bundleID, "iat": timestamp / 1000]
        answer.compactJWS = try Self.compactJWS(
            base.merging([
                "aud": "promotional-offer", "nonce": nonce, "productId": productID, "offerIdentifier": offerID,
            ]) { $1 }, keyID: keyID, key: key)
        if let appUserID = try appUserID.map({ id throws(ServiceError) in try CustomerID.normalized(id) }) {
            let record = try await store.subscriber(appUserID, in: app.project)
            let evidence = record?.evidence ?? EvidenceSet()
            let latest = evidence.transactions.max {
                ($0.purchaseDate ?? .distantPast) < ($1.purchaseDate ?? .distantPast)
            }
            let eligible = try await eligibility(appUserID: appUserID, bundleID: bundleID, productIDs: [productID])
            // Apple requires a transaction of the customer (or its appTransactionId, which the app can pass).
            if let transaction = transactionID ?? latest?.transactionID {
                answer.introductoryOfferEligibilityJWS = try Self.compactJWS(
                    base.merging([
                        "aud": "introductory-offer-eligibility", "nonce": UUID().uuidString.lowercased(),
                        "productId": productID, "allowIntroductoryOffer": eligible[productID] == "eligible",
                        "transactionId": transaction,
                    ]) { $1 }, keyID: keyID, key: key)
            }
        }
        return answer
    }

    /// An ES256 compact JWS over `claims` (sorted keys), as Apple's signing utilities make them.
    static func compactJWS(_ claims: [String: Any], keyID: String, key: P256.Signing.PrivateKey) throws -> String {
        let header = try JSONSerialization.data(
            withJSONObject: ["alg": "ES256", "kid": keyID, "typ": "JWT"], options: [.sortedKeys])
        let body = try JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys, .withoutEscapingSlashes])
        let input = Base64.urlEncode(Array(header)) + "." + Base64.urlEncode(Array(body))
        return input + "." + Base64.urlEncode(try key.signature(for: Array(input.utf8)).rawRepresentation)
    }
}
