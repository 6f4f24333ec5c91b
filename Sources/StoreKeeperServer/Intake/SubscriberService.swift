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
            throw ServiceError(.unknownApp, .unknownApp, "no app \(bundleID) is configured")
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
            throw ServiceError.invalid(.invalidReceipt, "receipt is not base64")
        }
        var evidence = EvidenceSet()
        if localReceipts {
            do {
                let verified = try await app.receipts.verify(der: der)
                evidence.add(receipt: verified.receiptInfo)
            } catch let error as VerificationError {
                ServerMetrics.verificationFailure(code: error.code.rawValue)
                throw ServiceError.unverifiable(APIErrorCode(error.code), "receipt: \(error.reason)")
            }
        } else {
            let response: VerifyReceiptResponse
            do {
                response = try await client.verifyReceipt(receipt, sharedSecret: app.configuration.sharedSecret)
            } catch let error as AppStoreClientError {
                switch error.status {
                case 21002?, 21003?:
                    throw ServiceError.unverifiable(.receiptRejected, "verifyReceipt: \(error.reason)")
                case 21004?:
                    throw ServiceError(
                        .appleRefused, .sharedSecretMismatch,
                        "verifyReceipt: the configured shared secret does not match")
                case 21010?: throw ServiceError.unverifiable(.accountNotFound, "verifyReceipt: \(error.reason)")
                default: throw ServiceError.apple(error, call: "verifyReceipt")
                }
            }
            guard response.receipt?.bundleId == bundleID else {
                throw ServiceError.unverifiable(
                    .unexpectedBundleID,
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
            throw ServiceError.unverifiable(APIErrorCode(error.code), "signed_transaction: \(error.reason)")
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
                .invalidOriginalTransactionID,
                "original_transaction_id \"\(originalTransactionID.prefix(64))\" is not a transaction id")
        }
        guard let credentials = app.credentials else {
            throw ServiceError(
                .missingConfiguration, .apiCredentialsMissing,
                "importing by original_transaction_id needs App Store Server API credentials for \(bundleID)")
        }
        let statuses: StatusResponse
        do {
            statuses = try await client.allSubscriptionStatuses(
                transactionID: originalTransactionID, credentials: credentials)
        } catch let error as AppStoreClientError where error.status == 404 || error.status == 400 {
            throw ServiceError.unverifiable(
                .transactionNotFound,
                "Apple knows no transaction \(originalTransactionID) for \(bundleID): \(error.reason)")
        } catch let error as AppStoreClientError {
            throw ServiceError.apple(error, call: "Get All Subscription Statuses")
        }
        let verified = await VerifiedStatuses(statuses, app: app)
        if let failure = verified.failures.first {
            let reason = (failure.error as? VerificationError).map { (APIErrorCode($0.code), $0.reason) }
            throw ServiceError.unverifiable(
                reason?.0 ?? .malformedPayload, "subscription status: \(reason?.1 ?? "\(failure.error)")")
        }
        let evidence = verified.evidence
        let raw = verified.signed
        guard !raw.isEmpty else {
            throw ServiceError.unverifiable(
                .noSubscriptions, "Apple lists no subscription for transaction \(originalTransactionID)")
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
                .forbidden, .secretKeyRequired,
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

}
