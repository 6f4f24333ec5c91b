/// Get Notification History: one page of notifications with their delivery attempts.
public struct NotificationHistoryResponse: Codable, Sendable, Hashable {
    /// Token for the next page.
    @Lenient public var paginationToken: String?
    /// Whether more pages exist.
    @Lenient public var hasMore: Bool?
    /// The notifications.
    public var notificationHistory: [NotificationHistoryResponseItem]?

    /// Makes an empty value; set the fields you need.
    public init() {}
}
