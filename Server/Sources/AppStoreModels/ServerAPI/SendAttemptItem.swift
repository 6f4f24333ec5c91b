public import Foundation

/// One delivery attempt of a notification.
public struct SendAttemptItem: Codable, Sendable, Hashable {
    /// When Apple tried.
    @Lenient public var attemptDate: Date?
    /// The outcome.
    @Lenient public var sendAttemptResult: SendAttemptResult?

    /// Makes an empty value; set the fields you need.
    public init() {}
}
