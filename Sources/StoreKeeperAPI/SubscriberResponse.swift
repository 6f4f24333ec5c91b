public import Foundation

/// The answer of every call that returns a subscriber: the server's clock and the subscriber.
public struct SubscriberResponse: Codable, Sendable, Hashable {
    /// The server's clock when it answered (never the device's).
    public var requestDate: Date
    /// The same instant in milliseconds since 1970.
    public var requestDateMS: Int64
    /// The subscriber.
    public var subscriber: Subscriber
    /// The customer's attributes (``AttributesPost``); absent when they have none.
    public var attributes: [String: String]?

    /// Makes a response.
    public init(requestDate: Date, requestDateMS: Int64, subscriber: Subscriber, attributes: [String: String]? = nil) {
        self.requestDate = requestDate
        self.requestDateMS = requestDateMS
        self.subscriber = subscriber
        self.attributes = attributes
    }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case attributes, requestDate = "request_date", requestDateMS = "request_date_ms", subscriber
    }
}

extension SubscriberResponse: APIDocumented {
    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .attributes: .optional(.map(of: .text).described("The customer's attributes; absent when none"))
        case .requestDate: .required(.dateTime)
        case .requestDateMS: .required(.integer)
        case .subscriber: .required(.type(Subscriber.self))
        }
    }
}
