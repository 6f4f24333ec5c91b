/// Get Notification History request body.
public struct NotificationHistoryRequest: Codable, Sendable, Hashable {
    /// Start, milliseconds since 1970.
    @Lenient public var startDate: Int64?
    /// End, milliseconds since 1970.
    @Lenient public var endDate: Int64?
    /// Only this type.
    @Lenient public var notificationType: NotificationTypeV2?
    /// Only this subtype.
    @Lenient public var notificationSubtype: NotificationSubtype?
    /// Only notifications about this transaction.
    @Lenient public var transactionId: String?
    /// Only notifications that never reached the server.
    @Lenient public var onlyFailures: Bool?

    /// Makes an empty value; set the fields you need.
    public init() {}
}
