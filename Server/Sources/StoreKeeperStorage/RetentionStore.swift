public import Foundation
public import SubscriptionMetrics

/// What Retention Messaging keeps: whose subscription Apple asks about, and every request and answer as events on
/// the customer (which also say when they were last answered a promotional offer).
public protocol RetentionStore: Sendable {
    /// Records each exchange — Apple's request and the answer given as `retention_request` and
    /// `retention_response` events on the customer, its answer row and its announcement (with its deliveries) —
    /// all in one transaction, unless its request was admitted before.
    ///
    /// Admission is in the database, so every replica sees it: an exchange whose `requestID` was recorded since
    /// `forgetBefore` (by any replica, or earlier in the same batch) is a replay and writes nothing; identifiers
    /// admitted before `forgetBefore` are forgotten in the same transaction.
    /// - Returns: The positions in `exchanges` of those refused as replays.
    @discardableResult
    func recordRetention(_ exchanges: [RetentionExchange], forgetBefore: Date) async throws -> Set<Int>

    /// When the customer (any of `appUserKeys`: their key and their aliases') was last answered a promotional
    /// offer, if ever.
    func lastRetentionOffer(appUserKeys: [String]) async throws -> Date?

    /// The answers given in `project` from `from` (inclusive) to `to` (exclusive), oldest first: what the
    /// retention metrics count.
    func retentionAnswers(project: String, from: Date, to: Date) async throws -> [RetentionAnswer]
}

/// One real-time request and its answer, as recorded.
public struct RetentionExchange: Sendable, Hashable {
    /// The customer's key.
    public var appUserKey: String
    /// Apple's request identifier (the events' cause id).
    public var requestID: String
    /// The request's details (`product_id`, `locale`).
    public var request: [String: EventValue]
    /// The answer's details (`rule`, `kind` — `message`, `alternate_product`, `promotional_offer` or `default` —
    /// `message_id`, `product_id`, `offer_id`, `reason`).
    public var response: [String: EventValue]
    /// When it was answered.
    public var at: Date
    /// The project (its answers are counted by the retention metrics).
    public var project: String
    /// The subscription Apple asked about and its environment, as the metrics count them.
    public var answer: RetentionAnswer
    /// The webhook event announcing it (`retention_offer_shown`), stored with its deliveries to the project's
    /// endpoints in the same transaction; `nil`: nothing is announced.
    public var announcement: OutboxEvent?

    /// Makes an exchange.
    public init(
        appUserKey: String, requestID: String, request: [String: EventValue], response: [String: EventValue], at: Date,
        project: String, answer: RetentionAnswer, announcement: OutboxEvent? = nil
    ) {
        self.project = project
        self.answer = answer
        self.announcement = announcement
        self.appUserKey = appUserKey
        self.requestID = requestID
        self.request = request
        self.response = response
        self.at = at
    }
}
