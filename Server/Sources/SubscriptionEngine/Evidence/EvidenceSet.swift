public import AppStoreModels
import Foundation

/// All evidence known about one customer, as a set: adding the same evidence twice, or in another order,
/// gives an equal value, which is what makes the engine's answer independent of arrival order.
///
/// ```swift
/// var evidence = EvidenceSet()
/// evidence.add(verifyReceiptResponse: response)
/// evidence.add(transaction: verifiedPayload)
/// let state = SubscriptionEngine(configuration: config).evaluate(evidence, at: serverNow)
/// ```
public struct EvidenceSet: Sendable, Hashable, Codable {
    /// Every transaction observation.
    public private(set) var transactions: Set<Transaction> = []
    /// Every renewal-state observation.
    public private(set) var renewals: Set<RenewalState> = []
    /// Consent rescinded by a parent or guardian, per subscription or purchase; `nil` (not stored) when none.
    public private(set) var consentRescissions: Set<ConsentRescission>? = nil
    /// Entitlements support gave without a purchase; `nil` (not stored) when none.
    public private(set) var grants: Set<EntitlementGrant>? = nil
    /// Grants support took back; `nil` (not stored) when none.
    public private(set) var grantRevocations: Set<GrantRevocation>? = nil

    /// An empty set.
    public init() {}

    /// Whether it holds no observation at all.
    public var isEmpty: Bool {
        transactions.isEmpty && renewals.isEmpty && (consentRescissions ?? []).isEmpty && (grants ?? []).isEmpty
            && (grantRevocations ?? []).isEmpty
    }

    /// Whether it holds evidence beside transactions and renewals (a rescinded consent, a grant): rare, and
    /// stored under keys of their own.
    public var hasCustomerEvidence: Bool { consentRescissions != nil || grants != nil || grantRevocations != nil }

    /// Each transaction once, its observations folded as the engine folds them (``Transaction/merged(_:)``).
    public var mergedTransactions: [Transaction] {
        Dictionary(grouping: transactions, by: \.transactionID).values.map(Transaction.merged)
    }

    /// Adds one transaction observation.
    /// - Parameter transaction: The observation.
    public mutating func insert(_ transaction: Transaction) { transactions.insert(transaction) }

    /// Adds one renewal-state observation.
    /// - Parameter renewal: The observation.
    public mutating func insert(_ renewal: RenewalState) { renewals.insert(renewal) }

    /// Adds one consent rescission.
    /// - Parameter rescission: The rescission.
    public mutating func insert(_ rescission: ConsentRescission) {
        consentRescissions = (consentRescissions ?? []).union([rescission])
    }

    /// Adds one grant.
    /// - Parameter grant: The grant.
    public mutating func insert(_ grant: EntitlementGrant) { grants = (grants ?? []).union([grant]) }

    /// Adds one grant's revocation.
    /// - Parameter revocation: The revocation.
    public mutating func insert(_ revocation: GrantRevocation) {
        grantRevocations = (grantRevocations ?? []).union([revocation])
    }

    /// Adds the evidence about the customer rather than one subscription (grants and their revocations) of
    /// `other`: what stays with the customer when subscriptions move away.
    public mutating func formCustomerUnion(_ other: EvidenceSet) {
        if let grants = other.grants { self.grants = (self.grants ?? []).union(grants) }
        if let revocations = other.grantRevocations {
            grantRevocations = (grantRevocations ?? []).union(revocations)
        }
    }

    /// Adds everything in another set.
    /// - Parameter other: More evidence.
    public mutating func formUnion(_ other: EvidenceSet) {
        transactions.formUnion(other.transactions)
        renewals.formUnion(other.renewals)
        if let rescissions = other.consentRescissions {
            consentRescissions = (consentRescissions ?? []).union(rescissions)
        }
        formCustomerUnion(other)
    }

    /// Adds a verifyReceipt response (modern or iOS 6-style): `in_app`, `latest_receipt_info` and
    /// `pending_renewal_info`, observed at the response's `request_date` (else the receipt's creation date).
    /// - Parameter response: A response with status 0 or 21006; others carry no evidence.
    public mutating func add(verifyReceiptResponse response: VerifyReceiptResponse) {
        guard response.status == 0 || response.status == 21006 else { return }
        let items =
            (response.receipt?.inApp ?? []) + (response.latestReceiptInfo ?? [])
            + [response.legacyReceipt, response.latestExpiredReceiptInfo].compactMap { $0 }
        let observedAt =
            response.receipt?.requestDate ?? response.receipt?.receiptCreationDate ?? Self.latestDate(in: items)
        for item in items {
            if let transaction = Transaction(item, source: .verifyReceipt, observedAt: observedAt) {
                insert(transaction)
            }
        }
        for pending in response.pendingRenewalInfo ?? [] {
            if let renewal = RenewalState(pending, source: .verifyReceipt, observedAt: observedAt) { insert(renewal) }
        }
        if let legacy = response.legacyReceipt ?? response.latestExpiredReceiptInfo,
            let original = legacy.originalTransactionId ?? legacy.transactionId,
            response.autoRenewStatus != nil || response.expirationIntent != nil
                || response.isInBillingRetryPeriod != nil
        {
            var renewal = RenewalState(originalTransactionID: original, source: .verifyReceipt)
            renewal.productID = legacy.productId
            renewal.autoRenewProductID = response.autoRenewProductId
            renewal.willAutoRenew = response.autoRenewStatus.map { $0 == .on }
            renewal.expirationIntent = response.expirationIntent
            renewal.isInBillingRetry = response.isInBillingRetryPeriod
            renewal.environment = response.environment
            renewal.observedAt = observedAt
            insert(renewal)
        }
    }

    /// Adds a receipt (decoded locally, or verifyReceipt's `receipt`), observed at its creation date.
    /// - Parameters:
    ///   - receipt: The receipt in verifyReceipt's form.
    ///   - source: Where it came from (default: a local decode).
    public mutating func add(receipt: ReceiptInfo, source: EvidenceSource = .localReceipt) {
        let observedAt = receipt.receiptCreationDate ?? Self.latestDate(in: receipt.inApp ?? [])
        for item in receipt.inApp ?? [] {
            if let transaction = Transaction(item, source: source, observedAt: observedAt) { insert(transaction) }
        }
    }

    /// Adds a verified StoreKit 2 transaction, observed at its `signedDate`.
    /// - Parameters:
    ///   - transaction: The verified payload.
    ///   - source: Where it came from (default: posted by the app).
    public mutating func add(transaction: JWSTransactionDecodedPayload, source: EvidenceSource = .signedData) {
        insert(Transaction(transaction, source: source))
    }

    /// Adds verified StoreKit 2 renewal info, observed at its `signedDate`.
    /// - Parameters:
    ///   - renewalInfo: The verified payload.
    ///   - source: Where it came from.
    public mutating func add(renewalInfo: JWSRenewalInfoDecodedPayload, source: EvidenceSource = .signedData) {
        insert(RenewalState(renewalInfo, source: source))
    }

    /// Adds a V1 notification's `unified_receipt`, observed at the latest date it mentions (V1 bodies carry no
    /// signing time).
    /// - Parameter notification: The V1 body (its shared secret already checked by the caller).
    public mutating func add(notificationV1 notification: NotificationV1Body) {
        let items = notification.unifiedReceipt?.latestReceiptInfo ?? []
        let observedAt = [Self.latestDate(in: items), notification.autoRenewStatusChangeDate].compactMap { $0 }.max()
        for item in items {
            if let transaction = Transaction(item, source: .notificationV1, observedAt: observedAt) {
                insert(transaction)
            }
        }
        for pending in notification.unifiedReceipt?.pendingRenewalInfo ?? [] {
            if let renewal = RenewalState(pending, source: .notificationV1, observedAt: observedAt) { insert(renewal) }
        }
    }

    /// Adds a verified V2 notification's nested transaction and renewal info.
    /// - Parameters:
    ///   - notification: The notification payload.
    ///   - transaction: Its verified `signedTransactionInfo`.
    ///   - renewalInfo: Its verified `signedRenewalInfo`.
    public mutating func add(
        notificationV2 notification: ResponseBodyV2DecodedPayload, transaction: JWSTransactionDecodedPayload?,
        renewalInfo: JWSRenewalInfoDecodedPayload?
    ) {
        if var transaction {
            transaction.signedDate = transaction.signedDate ?? notification.signedDate
            insert(Transaction(transaction, source: .notificationV2))
        }
        if var renewalInfo {
            renewalInfo.signedDate = renewalInfo.signedDate ?? notification.signedDate
            insert(RenewalState(renewalInfo, source: .notificationV2))
        }
    }

    static func latestDate(in items: [InAppTransactionInfo]) -> Date? {
        items.flatMap { [$0.purchaseDate, $0.cancellationDate].compactMap { $0 } }.max()
    }
}
