public import Foundation

/// The answer of every call that returns a subscriber: the server's clock and the subscriber.
public struct SubscriberResponse: Codable, Sendable, Hashable {
    /// The server's clock when it answered (never the device's).
    public var requestDate: Date
    /// The same instant in milliseconds since 1970.
    public var requestDateMS: Int64
    /// The subscriber.
    public var subscriber: Subscriber

    /// Makes a response.
    public init(requestDate: Date, requestDateMS: Int64, subscriber: Subscriber) {
        self.requestDate = requestDate
        self.requestDateMS = requestDateMS
        self.subscriber = subscriber
    }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case requestDate = "request_date", requestDateMS = "request_date_ms", subscriber
    }
}
