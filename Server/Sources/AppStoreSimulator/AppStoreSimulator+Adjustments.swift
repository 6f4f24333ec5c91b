public import Foundation

/// What happens to a purchase afterwards: refunds and their reversal, Family Sharing revoked, price increases and
/// the customer's answer, renewal dates extended, and the test switches for verifyReceipt
/// and deleted customers.
extension AppStoreSimulator {
    /// Refunds a transaction (REFUND; V1 CANCEL for subscriptions, REFUND otherwise). Refunding a
    /// subscription's current period revokes it (status 5).
    /// - Parameters:
    ///   - transactionID: The transaction.
    ///   - reason: 0 other, 1 app issue.
    ///   - prorated: A prorated refund with this share in thousandths of a percent (e.g. 50000 = 50 %).
    public func refund(transactionID: String, reason: Int = 0, proratedPercentage: Int? = nil) throws {
        advance()
        try applyRefund(transactionID: transactionID, reason: reason, proratedPercentage: proratedPercentage)
    }

    /// ``refund(transactionID:reason:proratedPercentage:)`` at the clock as it stands (time has been advanced).
    func applyRefund(transactionID: String, reason: Int, proratedPercentage: Int?) throws {
        guard var transaction = transactions[transactionID] else {
            throw SimulatorError.notFound("transaction", transactionID)
        }
        guard transaction.revocationDate == nil || transaction.isUpgraded else {
            throw SimulatorError(
                .alreadyRefunded, "transaction \(transactionID) is already refunded", kind: .conflict)
        }
        let now = clock.now()
        transaction.revocationDate = now
        transaction.revocationReason = reason
        transaction.revocationType = proratedPercentage == nil ? "REFUND_FULL" : "REFUND_PRORATED"
        transaction.revocationPercentage = proratedPercentage
        record(transaction)
        var subscription = subscriptions[transaction.originalTransactionID]
        if var current = subscription, current.latestTransactionID == transactionID {
            current.status = .revoked
            current.autoRenewEnabled = false
            subscriptions[current.originalTransactionID] = current
            subscription = current
        }
        emit(
            "REFUND", nil, v1: transaction.expiresDate == nil ? "REFUND" : "CANCEL", transaction: transaction,
            subscription: subscription, at: now)
    }

    /// Reverses a refund (REFUND_REVERSED): access is restored.
    /// - Parameter transactionID: The refunded transaction.
    public func reverseRefund(transactionID: String) throws {
        advance()
        guard var transaction = transactions[transactionID], transaction.revocationDate != nil, !transaction.isUpgraded
        else {
            throw SimulatorError(
                .notRefunded, "transaction \(transactionID) has no refund to reverse", kind: .conflict)
        }
        let now = clock.now()
        transaction.revocationDate = nil
        transaction.revocationReason = nil
        transaction.revocationType = nil
        transaction.revocationPercentage = nil
        record(transaction)
        var subscription = subscriptions[transaction.originalTransactionID]
        if var current = subscription, current.latestTransactionID == transactionID, current.status == .revoked {
            current.status = current.periodEnd > now ? .active : .expired
            current.autoRenewEnabled = current.periodEnd > now
            subscriptions[current.originalTransactionID] = current
            subscription = current
        }
        emit("REFUND_REVERSED", nil, v1: nil, transaction: transaction, subscription: subscription, at: now)
    }

    /// Revokes a family-shared purchase (REVOKE).
    /// - Parameter transactionID: A family-shared transaction.
    public func revokeFamilySharing(transactionID: String) throws {
        advance()
        guard var transaction = transactions[transactionID], transaction.ownership == "FAMILY_SHARED" else {
            throw SimulatorError(
                .notFamilyShared, "transaction \(transactionID) is not family shared", kind: .conflict)
        }
        let now = clock.now()
        transaction.revocationDate = now
        transaction.revocationType = "FAMILY_REVOKE"
        transaction.revocationReason = 0
        record(transaction)
        var subscription = subscriptions[transaction.originalTransactionID]
        if var current = subscription {
            current.status = .revoked
            current.autoRenewEnabled = false
            subscriptions[current.originalTransactionID] = current
            subscription = current
        }
        emit("REVOKE", nil, v1: "REVOKE", transaction: transaction, subscription: subscription, at: now)
    }

    /// Announces a price increase for a product's subscribers. With consent required, each active subscriber
    /// gets PRICE_INCREASE / PENDING and must ``respondToPriceIncrease(originalTransactionID:accept:)``;
    /// otherwise PRICE_INCREASE / ACCEPTED.
    /// - Parameters:
    ///   - bundleID: The app.
    ///   - productID: The product.
    ///   - newPrice: The new price in milliunits.
    ///   - requiresConsent: Whether subscribers must agree.
    public func increasePrice(bundleID: String, productID: String, newPrice: Int64, requiresConsent: Bool = true) throws
    {
        advance()
        guard var app = apps[bundleID], let index = app.products.firstIndex(where: { $0.productID == productID }) else {
            throw SimulatorError.notFound("product", productID)
        }
        for key in app.products[index].prices.keys { app.products[index].prices[key] = newPrice }
        apps[bundleID] = app
        let now = clock.now()
        for id in subscriptions.keys.sorted() {
            guard var subscription = subscriptions[id], subscription.bundleID == bundleID,
                subscription.autoRenewProductID == productID, subscription.status == .active
            else { continue }
            subscription.priceIncreaseStatus = requiresConsent ? 0 : 1
            subscription.pendingPrice = newPrice
            subscriptions[id] = subscription
            emit(
                "PRICE_INCREASE", requiresConsent ? "PENDING" : "ACCEPTED",
                v1: requiresConsent ? "PRICE_INCREASE_CONSENT" : nil, subscription: subscription, at: now)
        }
    }

    /// A subscriber accepts or declines a pending price increase. Declining expires the subscription at the
    /// next renewal (EXPIRED / PRICE_INCREASE).
    public func respondToPriceIncrease(originalTransactionID: String, accept: Bool) throws {
        var subscription = try activeSubscription(originalTransactionID)
        guard subscription.priceIncreaseStatus == 0 else {
            throw SimulatorError(
                .noPriceIncrease, "subscription \(originalTransactionID) has no pending increase", kind: .conflict)
        }
        if accept {
            subscription.priceIncreaseStatus = 1
            subscriptions[originalTransactionID] = subscription
            emit("PRICE_INCREASE", "ACCEPTED", v1: nil, subscription: subscription, at: clock.now())
        }
    }

    /// Extends the current period (RENEWAL_EXTENDED), as the Server API's Extend a Subscription Renewal Date.
    /// - Returns: The new renewal date.
    @discardableResult
    public func extendRenewalDate(originalTransactionID: String, days: Int, reasonCode: Int = 0) throws -> Date {
        var subscription = try activeSubscription(originalTransactionID)
        guard (1...90).contains(days) else { throw SimulatorError(.invalidDays, "extendByDays \(days) must be 1–90") }
        guard subscription.status == .active else {
            throw SimulatorError(
                .notActive, "subscription \(originalTransactionID) is \(subscription.status)", kind: .conflict)
        }
        var latest = transactions[subscription.latestTransactionID]!
        let extended = (latest.expiresDate ?? subscription.periodEnd).addingTimeInterval(
            configuration.rate.seconds(forDays: Double(days)))
        latest.expiresDate = extended
        record(latest)
        subscription.periodEnd = extended
        subscriptions[originalTransactionID] = subscription
        emit("RENEWAL_EXTENDED", nil, v1: nil, subscription: subscription, at: clock.now())
        return extended
    }

    /// Makes verifyReceipt answer with a status (21005, 21009, 21100…) until cleared with `nil`.
    public func forceVerifyReceiptStatus(_ status: Int?) {
        forcedVerifyReceiptStatus = status
        revision &+= 1
    }

    /// Deletes a customer's account: verifyReceipt then answers 21010.
    public func deleteCustomer(_ customerID: String) {
        deletedCustomers.insert(customerID)
        revision &+= 1
    }
}
