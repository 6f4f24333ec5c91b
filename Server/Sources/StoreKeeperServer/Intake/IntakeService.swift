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

/// The intake room's logic, apart from HTTP: verify evidence (receipts, signed transactions, notifications,
/// imports and what polling and reconciliation fetch), store it with its events in one transaction, and answer
/// with the subscriber's document from ``SubscriberService``.
struct IntakeService: Sendable {
    let store: any EvidenceStore
    /// Where a customer's attributes are removed when Apple says consent was rescinded.
    let attributes: any AttributeStore
    /// The poll schedule's leases.
    let polls: any PollStore
    let apps: AppDirectory
    let policy: TransferPolicy
    let client: AppStoreClient
    let localReceipts: Bool
    /// Where the subscriber's answer after a write comes from.
    let subscribers: SubscriberService
    let now: @Sendable () -> Date
    /// Where failures that do not fail the request are reported (outside a request; see ``log``).
    let logger: Logger

    /// The logger for a line: the current request's (with its request id) when there is one.
    var log: Logger { RequestScope.logger ?? logger }
    /// Decoded JWS headers of notifications, split before their app (and its verifier) is known.
    let headers = JWSHeaderCache()
    /// The newest refused notifications, for the dashboard's notification log (this process's, memory only).
    let refusals = RefusalLog()

    /// The engine the subscribers' answers come from.
    var engine: SubscriptionEngine { subscribers.engine }

    func app(_ bundleID: String) throws(ServiceError) -> AppRuntime { try apps.app(bundleID) }

    static func originals(_ evidence: EvidenceSet) -> [String] {
        Array(
            Set(evidence.transactions.map(\.originalTransactionID)).union(
                evidence.renewals.map(\.originalTransactionID))
        ).sorted()
    }

    // MARK: - Client evidence

    /// `POST /v1/receipts` (and an import by receipt: `cause` `import`).
    /// - Parameter personal: Whether the answer shows the personal attributes (a secret key's call).
    func postReceipt(
        appUserID: String, receipt: String, deviceID: String?, bundleID: String, cause: EventCause = .client,
        personal: Bool
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
        return try await apply(write, answerFor: appUserID, personal: personal)
    }

    /// `POST /v1/transactions`.
    /// - Parameter personal: Whether the answer shows the personal attributes (a secret key's call).
    func postTransaction(appUserID: String, signedTransaction: String, bundleID: String, personal: Bool)
        async throws -> [UInt8]
    {
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
        return try await apply(write, answerFor: appUserID, personal: personal)
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
        let verified = try await appleStatuses(originalTransactionID, app: app, credentials: credentials)
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
        return try await apply(write, answerFor: appUserID, personal: true)
    }

    /// The subscriptions of `originalTransactionID`'s customer as Apple tells them now (Get All Subscription
    /// Statuses), every signed item verified.
    /// - Throws: `transaction_not_found` when Apple knows no such transaction; a verification code naming the item
    ///   that does not verify; `apple_unavailable`, `apple_timeout` or `apple_rate_limited`.
    func appleStatuses(_ originalTransactionID: String, app: AppRuntime, credentials: AppStoreClient.Credentials)
        async throws -> VerifiedStatuses
    {
        let statuses: StatusResponse
        do {
            statuses = try await client.allSubscriptionStatuses(
                transactionID: originalTransactionID, credentials: credentials)
        } catch let error as AppStoreClientError where error.status == 404 || error.status == 400 {
            throw ServiceError.unverifiable(
                .transactionNotFound,
                "Apple knows no transaction \(originalTransactionID) for \(app.configuration.bundleID): \(error.reason)"
            )
        } catch let error as AppStoreClientError {
            throw ServiceError.apple(error, call: "Get All Subscription Statuses")
        }
        let verified = await VerifiedStatuses(statuses, app: app)
        if let failure = verified.failures.first {
            let reason = (failure.error as? VerificationError).map { (APIErrorCode($0.code), $0.reason) }
            throw ServiceError.unverifiable(
                reason?.0 ?? .malformedPayload, "subscription status: \(reason?.1 ?? "\(failure.error)")")
        }
        return verified
    }

    func apply(_ write: EvidenceWrite, answerFor appUserID: String, personal: Bool) async throws -> [UInt8] {
        _ = try await store.apply(write, policy: policy, now: now())
        return try await subscribers.subscriberDocument(
            appUserID: appUserID, project: write.project, personal: personal)
    }
}
