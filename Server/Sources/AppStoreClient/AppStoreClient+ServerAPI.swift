public import AppStoreModels
public import Foundation

/// The rest of the App Store Server API, each call as Apple documents it. Every call takes the app's credentials
/// and, when the caller knows it, the environment; without one it asks production, then the sandbox when
/// production does not know the transaction.
extension AppStoreClient {
    /// Get Transaction Info: one signed transaction.
    public func transactionInfo(
        transactionID: String, credentials: Credentials, environment: ServerAPIEnvironment? = nil
    ) async throws -> TransactionInfoResponse {
        try await call(
            .get, "/inApps/v1/transactions/\(Self.segment(transactionID))", credentials: credentials,
            environment: environment)
    }

    /// Get Transaction History v1 (deprecated by Apple, still served), one page.
    public func transactionHistoryV1(
        transactionID: String, revision: String?, credentials: Credentials, environment: ServerAPIEnvironment? = nil
    ) async throws -> HistoryResponse {
        let query = revision.map { "?revision=\(Self.segment($0))" } ?? ""
        return try await call(
            .get, "/inApps/v1/history/\(Self.segment(transactionID))\(query)", credentials: credentials,
            environment: environment)
    }

    /// Get Refund History, one page.
    public func refundHistory(
        transactionID: String, revision: String?, credentials: Credentials, environment: ServerAPIEnvironment? = nil
    ) async throws -> RefundHistoryResponse {
        let query = revision.map { "?revision=\(Self.segment($0))" } ?? ""
        return try await call(
            .get, "/inApps/v2/refund/lookup/\(Self.segment(transactionID))\(query)", credentials: credentials,
            environment: environment)
    }

    /// Look Up Order ID: the transactions of a customer's order (the id on their email receipt).
    public func lookUpOrder(orderID: String, credentials: Credentials, environment: ServerAPIEnvironment? = nil)
        async throws -> OrderLookupResponse
    {
        try await call(
            .get, "/inApps/v1/lookup/\(Self.segment(orderID))", credentials: credentials, environment: environment)
    }

    /// Extend a Subscription Renewal Date.
    public func extendRenewalDate(
        originalTransactionID: String, request: ExtendRenewalDateRequest, credentials: Credentials,
        environment: ServerAPIEnvironment? = nil
    ) async throws -> ExtendRenewalDateResponse {
        try await call(
            .put, "/inApps/v1/subscriptions/extend/\(Self.segment(originalTransactionID))", credentials: credentials,
            body: try JSONEncoder().encode(request), environment: environment)
    }

    /// Extend Subscription Renewal Dates for All Active Subscribers of a product.
    public func extendRenewalDatesForAll(
        _ request: MassExtendRenewalDateRequest, credentials: Credentials,
        environment: ServerAPIEnvironment = .production
    ) async throws -> MassExtendRenewalDateResponse {
        try await call(
            .post, "/inApps/v1/subscriptions/extend/mass", credentials: credentials,
            body: try JSONEncoder().encode(request), environment: environment)
    }

    /// Get Status of Subscription Renewal Date Extensions.
    public func massExtensionStatus(
        productID: String, requestIdentifier: String, credentials: Credentials,
        environment: ServerAPIEnvironment = .production
    ) async throws -> MassExtendRenewalDateStatusResponse {
        try await call(
            .get,
            "/inApps/v1/subscriptions/extend/mass/\(Self.segment(productID))/\(Self.segment(requestIdentifier))",
            credentials: credentials, environment: environment)
    }

    /// Request a Test Notification: Apple sends a `TEST` notification to the app's server URL.
    public func requestTestNotification(credentials: Credentials, environment: ServerAPIEnvironment = .production)
        async throws -> SendTestNotificationResponse
    {
        try await call(
            .post, "/inApps/v1/notifications/test", credentials: credentials, body: Data(), environment: environment)
    }

    /// Get Test Notification Status.
    public func testNotificationStatus(
        token: String, credentials: Credentials, environment: ServerAPIEnvironment = .production
    ) async throws -> CheckTestNotificationResponse {
        try await call(
            .get, "/inApps/v1/notifications/test/\(Self.segment(token))", credentials: credentials,
            environment: environment)
    }

    /// Send Consumption Information (v1, or v2 with Apple's newer fields): `body` is the JSON Apple documents for
    /// that version.
    public func sendConsumptionInformation(
        transactionID: String, body: Data, version: Int = 2, credentials: Credentials,
        environment: ServerAPIEnvironment? = nil
    ) async throws {
        _ = try await exchange(
            .put, "/inApps/v\(version == 1 ? 1 : 2)/transactions/consumption/\(Self.segment(transactionID))",
            credentials: credentials, body: body, environment: environment)
    }

    /// Set App Account Token: every transaction of the purchase, and its renewals, carry `token` (a UUID).
    public func setAppAccountToken(
        originalTransactionID: String, token: String, credentials: Credentials,
        environment: ServerAPIEnvironment? = nil
    ) async throws {
        var request = UpdateAppAccountTokenRequest()
        request.appAccountToken = token.lowercased()
        _ = try await exchange(
            .put, "/inApps/v1/transactions/\(Self.segment(originalTransactionID))/appAccountToken",
            credentials: credentials, body: try JSONEncoder().encode(request), environment: environment)
    }

    /// Get App Transaction Info: the customer's signed app transaction.
    public func appTransactionInfo(
        transactionID: String, credentials: Credentials, environment: ServerAPIEnvironment? = nil
    ) async throws -> AppTransactionInfoResponse {
        try await call(
            .get, "/inApps/v1/transactions/appTransactions/\(Self.segment(transactionID))", credentials: credentials,
            environment: environment)
    }

    /// Finish Transaction: tells Apple the app's server delivered the purchase.
    public func finishTransaction(
        transactionID: String, credentials: Credentials, environment: ServerAPIEnvironment? = nil
    ) async throws {
        _ = try await exchange(
            .post, "/inApps/v1/transactions/\(Self.segment(transactionID))/finish", credentials: credentials,
            body: Data(), environment: environment)
    }

    /// `value` as one path segment or query value: all but RFC 3986's unreserved characters percent-encoded.
    static func segment(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? value
    }

    static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
