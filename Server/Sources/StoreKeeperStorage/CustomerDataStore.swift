public import Foundation

/// What a store holds about one customer, as a data access request reads it and an erasure request removes it.
public protocol CustomerDataStore: Sendable {
    /// The raw evidence the customer's events were written from (receipts, signed transactions, notifications),
    /// oldest first, rebuilt byte for byte; an alias resolves to its customer.
    func customerEvidence(_ appUserID: String, in project: ProjectScope) async throws -> [RawEvidenceRecord]

    /// Erases the customer in one transaction: the subscriber and its evidence, aliases, subscriptions' ownership,
    /// events, attributes, announcements, webhook events and deliveries, enrolments and outcomes, metric
    /// contributions, retention answers and Apple's notifications about their subscriptions. Only the metric
    /// rollups' anonymous sums remain. Every server's caches drop the customer (the change feed).
    /// - Returns: What was erased; `nil` when the project knows no such customer (nothing is written).
    func eraseCustomer(_ appUserID: String, in project: ProjectScope) async throws -> ErasureRecord?
}

/// One stored piece of raw evidence.
public struct RawEvidenceRecord: Sendable, Hashable {
    /// Its row.
    public var id: Int64
    /// What it is (`receipt`, `signed_transaction`, `notification_v2`, `support`…).
    public var kind: String
    /// When it arrived.
    public var receivedAt: Date
    /// The raw text (empty once purged by the retention window).
    public var body: String

    /// Makes a record.
    public init(id: Int64, kind: String, receivedAt: Date, body: String) {
        self.id = id
        self.kind = kind
        self.receivedAt = receivedAt
        self.body = body
    }
}

/// What an erasure removed.
public struct ErasureRecord: Sendable, Hashable {
    /// The customer's id (an alias asked for resolves to it).
    public var appUserID: String
    /// Its aliases, erased with it.
    public var aliases: [String]
    /// How many subscriptions and purchases it owned.
    public var subscriptions: Int
    /// How many rows were deleted, all tables together.
    public var rows: Int

    /// Makes a record.
    public init(appUserID: String, aliases: [String], subscriptions: Int, rows: Int) {
        self.appUserID = appUserID
        self.aliases = aliases
        self.subscriptions = subscriptions
        self.rows = rows
    }
}
