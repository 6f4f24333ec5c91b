public import Foundation

/// The App Store as an app sees it: StoreKit 2 (`StoreKit2Store`), StoreKit 1 (`StoreKit1Store`) or the
/// simulator (``SimulatorStore``). An adapter maps types only; every rule lives in ``StoreKeeper``.
public protocol PurchaseStore: Sendable {
    /// The products with these ids the store sells (unknown ids are left out).
    func products(_ ids: [String]) async throws -> [StoreProduct]

    /// Asks the customer to buy `productID`, with a signed promotional offer if given.
    /// - Throws: ``StoreKeeperError`` (`productNotFound`, `purchaseNotAllowed`, `alreadyOwned`, `store`).
    func purchase(_ productID: String, offer: PromotionalOffer?) async throws -> StorePurchaseOutcome

    /// Transactions the app has not finished (StoreKit 2 `Transaction.unfinished`; StoreKit 1: the payment
    /// queue's purchased and restored transactions).
    func unfinishedTransactions() async throws -> [StoreTransaction]

    /// Transactions that arrive while the app runs: renewals, Ask to Buy approvals, purchases on another
    /// device, offer-code redemptions (StoreKit 2 `Transaction.updates`; StoreKit 1: the queue observer).
    func transactionUpdates() -> AsyncStream<StoreTransaction>

    /// Tells the store the app delivered `transaction`; it is not offered again.
    func finish(_ transaction: StoreTransaction) async throws

    /// The evidence of the customer's purchases on this device: the app receipt, or StoreKit 2's signed current
    /// entitlements. With `refresh` the store fetches new evidence, which may ask for the Apple ID password;
    /// without it, `nil` when there is none.
    func evidence(refresh: Bool) async throws -> StoreEvidence?

    /// Replays the customer's past purchases (StoreKit 2 `AppStore.sync`; StoreKit 1
    /// `restoreCompletedTransactions`), which may ask for the Apple ID password.
    func restore() async throws -> [StoreTransaction]

    /// Shows the App Store's page where the customer manages their subscriptions (StoreKit 2
    /// `AppStore.showManageSubscriptions(in:)`), returning when it closes. Default: ``StoreKeeperError/Code/unsupported``.
    func showManageSubscriptions() async throws

    /// Asks the App Store to start a refund request for a transaction (StoreKit 2
    /// `Transaction.beginRefundRequest(for:in:)`); Apple decides later and tells the server. Default:
    /// ``StoreKeeperError/Code/unsupported``.
    /// - Returns: Whether the customer submitted the request.
    func beginRefundRequest(for transactionID: String) async throws -> RefundRequestStatus
}

extension PurchaseStore {
    /// This store has no subscription management page.
    public func showManageSubscriptions() async throws {
        throw StoreKeeperError(.unsupported, "this store has no subscription management page")
    }

    /// This store takes no refund requests.
    public func beginRefundRequest(for transactionID: String) async throws -> RefundRequestStatus {
        throw StoreKeeperError(.unsupported, "this store takes no refund requests (transaction \(transactionID))")
    }
}
