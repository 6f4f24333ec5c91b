public import AppStoreModels
public import Foundation

/// The App Store Server API, answered from the simulated store. Every call is scoped to the app named by the
/// caller's JWT (`bid`); ids of other apps are "not found", as at Apple.
extension AppStoreSimulator {
    /// Counts an authenticated App Store Server API request (see ``serverAPIRequests``).
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - path: The path, without the query.
    public func recordServerAPIRequest(method: String, path: String) {
        serverAPIRequests.record(method: method, path: path)
    }

    func customerTransaction(_ transactionID: String, bundleID: String) throws(AppStoreAPIError) -> SimulatedTransaction
    {
        guard !transactionID.isEmpty, transactionID.allSatisfy(\.isNumber), transactionID.count <= 32 else {
            throw .invalidTransactionID
        }
        guard let transaction = transactions[transactionID], transaction.bundleID == bundleID else {
            throw .transactionNotFound
        }
        return transaction
    }

    /// Get All Subscription Statuses.
    public func allSubscriptionStatuses(transactionID: String, bundleID: String, statusFilter: Set<Int> = [])
        throws(AppStoreAPIError)
        -> StatusResponse
    {
        advance()
        let anchor = try customerTransaction(transactionID, bundleID: bundleID)
        let now = clock.now()
        let owned = customerSubscriptions(bundleID: bundleID, customerID: anchor.customerID)
        var groups: [String: [LastTransactionsItem]] = [:]
        for subscription in owned.sorted(by: { $0.originalTransactionID < $1.originalTransactionID })
        where statusFilter.isEmpty || statusFilter.contains(subscription.status.rawValue) {
            var item = LastTransactionsItem()
            item.status = SubscriptionStatus(rawValue: subscription.status.rawValue)
            item.originalTransactionId = subscription.originalTransactionID
            item.signedTransactionInfo = signedTransaction(subscription.latestTransactionID, at: now)
            item.signedRenewalInfo = signedRenewalInfo(subscription.originalTransactionID, at: now)
            groups[subscription.subscriptionGroupID, default: []].append(item)
        }
        var response = StatusResponse()
        response.environment = AppStoreEnvironment(rawValue: configuration.environment)
        response.bundleId = bundleID
        response.appAppleId = apps[bundleID]?.appAppleID
        response.data = groups.keys.sorted().map { group in
            var item = SubscriptionGroupIdentifierItem()
            item.subscriptionGroupIdentifier = group
            item.lastTransactions = groups[group]
            return item
        }
        return response
    }

    /// Get Transaction Info.
    public func transactionInfo(transactionID: String, bundleID: String) throws(AppStoreAPIError)
        -> TransactionInfoResponse
    {
        advance()
        let transaction = try customerTransaction(transactionID, bundleID: bundleID)
        var response = TransactionInfoResponse()
        response.signedTransactionInfo = sign(transactionPayload(transaction, signedAt: clock.now()))
        return response
    }

    /// Get Transaction History (v2): the customer's transactions, 20 per page; `revision` is the next index.
    public func transactionHistory(transactionID: String, bundleID: String, revision: String?, descending: Bool = false)
        throws(AppStoreAPIError) -> HistoryResponse
    {
        advance()
        let anchor = try customerTransaction(transactionID, bundleID: bundleID)
        var all = customerTransactions(bundleID: bundleID, customerID: anchor.customerID)
        if descending { all.reverse() }
        let start = Int(revision ?? "0") ?? -1
        guard start >= 0, start <= all.count else { throw .invalidRequest }
        let page = all[start..<min(all.count, start + 20)]
        var response = HistoryResponse()
        response.revision = String(start + page.count)
        response.hasMore = start + page.count < all.count
        response.bundleId = bundleID
        response.appAppleId = apps[bundleID]?.appAppleID
        response.environment = AppStoreEnvironment(rawValue: configuration.environment)
        response.signedTransactions = page.map { sign(transactionPayload($0, signedAt: clock.now())) }
        return response
    }

    /// Get Refund History (v2).
    public func refundHistory(transactionID: String, bundleID: String) throws(AppStoreAPIError) -> RefundHistoryResponse
    {
        advance()
        let anchor = try customerTransaction(transactionID, bundleID: bundleID)
        var response = RefundHistoryResponse()
        response.signedTransactions = customerTransactions(bundleID: bundleID, customerID: anchor.customerID)
            .filter { $0.revocationDate != nil && !$0.isUpgraded }
            .map { sign(transactionPayload($0, signedAt: clock.now())) }
        response.revision = String(response.signedTransactions?.count ?? 0)
        response.hasMore = false
        return response
    }

    /// Look Up Order ID: status 0 with the order's transactions, or status 1 for an unknown order.
    public func lookUpOrder(orderID: String, bundleID: String) -> OrderLookupResponse {
        advance()
        let matching = transactionOrder.compactMap { transactions[$0] }.filter {
            $0.orderID == orderID && $0.bundleID == bundleID
        }
        var response = OrderLookupResponse()
        response.status = matching.isEmpty ? 1 : 0
        response.signedTransactions = matching.map { sign(transactionPayload($0, signedAt: clock.now())) }
        return response
    }

    /// Extend a Subscription Renewal Date, with Apple's rules: 1–90 days, a reason code 0–3, a paid active period
    /// (403 4030004 otherwise) and at most two extensions of a subscription in 365 days (403 4030005).
    public func extendRenewalDate(originalTransactionID: String, bundleID: String, request: ExtendRenewalDateRequest)
        throws(AppStoreAPIError) -> ExtendRenewalDateResponse
    {
        guard let subscription = subscriptions[originalTransactionID], subscription.bundleID == bundleID else {
            throw .originalTransactionNotFound
        }
        guard let days = request.extendByDays, (1...90).contains(days) else { throw .invalidExtendByDays }
        guard (0...3).contains(request.extendReasonCode ?? 0) else { throw .invalidExtendReasonCode }
        let latest = transactions[subscription.latestTransactionID]
        guard subscription.status == .active, latest?.offerDiscountType != "FREE_TRIAL" else {
            throw .subscriptionExtensionIneligible
        }
        let yearAgo = clock.now().addingTimeInterval(-configuration.rate.seconds(forDays: 365))
        let recent = (subscription.extensionDates ?? []).filter { $0 > yearAgo }
        guard recent.count < 2 else { throw .subscriptionMaxExtension }
        var response = ExtendRenewalDateResponse()
        response.originalTransactionId = originalTransactionID
        response.webOrderLineItemId = transactions[subscription.latestTransactionID]?.webOrderLineItemID
        do {
            response.effectiveDate = Self.wireDate(
                try extendRenewalDate(
                    originalTransactionID: originalTransactionID, days: days, reasonCode: request.extendReasonCode ?? 0)
            )
            subscriptions[originalTransactionID]?.extensionDates = recent + [clock.now()]
            response.success = true
        } catch {
            response.success = false
            response.effectiveDate = Self.wireDate(subscription.periodEnd)
        }
        return response
    }

    /// Get Notification History: notifications signed between the dates, 20 per page — only those Apple has tried
    /// to send (a notification appears in Apple's history once a send attempt was made).
    public func notificationHistory(bundleID: String, request: NotificationHistoryRequest, paginationToken: String?)
        throws(AppStoreAPIError) -> NotificationHistoryResponse
    {
        advance()
        guard let start = request.startDate, let end = request.endDate, start <= end else { throw .invalidRequest }
        let matching = notificationLog.filter { record in
            let signed = Self.milliseconds(record.signedDate)
            return record.bundleID == bundleID && !record.attempts.isEmpty && signed >= start && signed <= end
                && (request.notificationType.map { $0.rawValue == record.notificationType } ?? true)
                && (request.notificationSubtype.map { $0.rawValue == record.subtype } ?? true)
                && (request.transactionId.map { $0 == record.transactionID } ?? true)
                && (request.onlyFailures != true || !record.attempts.contains { $0.result == "SUCCESS" })
        }
        let offset = Int(paginationToken ?? "0") ?? 0
        guard offset >= 0, offset <= matching.count else { throw .invalidRequest }
        let page = matching[offset..<min(matching.count, offset + 20)]
        var response = NotificationHistoryResponse()
        response.hasMore = offset + page.count < matching.count
        response.paginationToken = response.hasMore == true ? String(offset + page.count) : nil
        response.notificationHistory = page.map { record in
            var item = NotificationHistoryResponseItem()
            item.signedPayload = record.signedPayload
            item.sendAttempts = Self.sendAttempts(record)
            return item
        }
        return response
    }

    /// Get Test Notification Status.
    public func testNotificationStatus(token: String, bundleID: String) throws(AppStoreAPIError)
        -> CheckTestNotificationResponse
    {
        guard
            let record = notificationLog.first(where: { $0.testNotificationToken == token && $0.bundleID == bundleID })
        else {
            throw AppStoreAPIError(httpStatus: 404, errorCode: 4_040_008, errorMessage: "Test notification not found.")
        }
        var response = CheckTestNotificationResponse()
        response.signedPayload = record.signedPayload
        response.sendAttempts = Self.sendAttempts(record)
        return response
    }

    /// A notification's delivery attempts in Apple's shape.
    static func sendAttempts(_ record: SimulatedNotification) -> [SendAttemptItem] {
        record.attempts.map { attempt in
            var sent = SendAttemptItem()
            sent.attemptDate = Self.wireDate(attempt.date)
            sent.sendAttemptResult = SendAttemptResult(rawValue: attempt.result)
            return sent
        }
    }
}
