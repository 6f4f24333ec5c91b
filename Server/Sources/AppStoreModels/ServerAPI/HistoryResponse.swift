/// Get Transaction History (v2): one page of signed transactions.
public struct HistoryResponse: Codable, Sendable, Hashable {
    /// Token for the next page.
    @Lenient public var revision: String?
    /// Whether more pages exist.
    @Lenient public var hasMore: Bool?
    /// The bundle identifier.
    @Lenient public var bundleId: String?
    /// The app's Apple id.
    @Lenient public var appAppleId: Int64?
    /// The environment.
    @Lenient public var environment: AppStoreEnvironment?
    /// Signed transactions (JWS).
    public var signedTransactions: [String]?

    /// Makes an empty value; set the fields you need.
    public init() {}
}
