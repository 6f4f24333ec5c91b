import Foundation

extension StoreKeeper {
    /// Sends a transaction the app's own purchase code received (``Mode/observer``: StoreKit 2 hands a purchase's
    /// transaction to the code that bought, not to `Transaction.updates`), without finishing it: the app finishes
    /// it once this returns. In ``Mode/full`` it is sent and finished like any other.
    /// - Parameter transaction: The transaction (`StoreKit2Store.transaction(_:)` makes one of StoreKit's).
    /// - Returns: The access after the server stored it.
    /// - Throws: ``StoreKeeperError`` when the server could not take it: send it again (or let the next launch).
    @discardableResult
    public func recordPurchase(_ transaction: StoreTransaction) async throws -> CustomerInfo {
        try await send(transaction)
    }

    /// Shows the App Store's page where the customer manages (upgrades, downgrades, cancels) their subscriptions,
    /// for a "Manage subscription" button; ``CustomerInfo/managementURL`` is the link for platforms without one.
    /// - Returns: The access once the page closed, asked of the server (a change the customer made there reaches
    ///   the server as a notification, so it may show a moment later).
    /// - Throws: ``StoreKeeperError`` `unsupported` where the store has no such page.
    @discardableResult
    public func showManageSubscriptions() async throws -> CustomerInfo {
        _ = try await started()
        try await store.showManageSubscriptions()
        return try await customerInfo(fetchPolicy: .fetchCurrent)
    }

    /// Starts Apple's refund request for the customer's latest transaction of `productID`, for a "Request a
    /// refund" button. Apple decides later; a granted refund reaches the server as a notification and ends the
    /// access at the next answer.
    /// - Parameter productID: The product to ask a refund for.
    /// - Returns: Whether the customer submitted the request.
    /// - Throws: ``StoreKeeperError``: `productNotFound` when the server's last answer holds no transaction of
    ///   that product; `unsupported` where the store takes no refund requests.
    public func beginRefundRequest(for productID: String) async throws -> RefundRequestStatus {
        let current = try await started()
        let subscriber = current.answer?.response.subscriber
        let transactionID =
            subscriber?.subscriptions.last { $0.productID == productID }?.latestTransactionID
            ?? subscriber?.nonSubscriptions.last { $0.productID == productID }?.transactionID
        guard let transactionID else {
            throw StoreKeeperError(
                .productNotFound, "the customer's last answer holds no transaction of \(productID) to refund")
        }
        return try await store.beginRefundRequest(for: transactionID)
    }
}
