public import StoreKeeperAPI

/// A server answer as kept on the device: the document and the clock anchor it arrived with.
public struct CachedAnswer: Codable, Sendable, Hashable {
    /// The server's answer.
    public var response: SubscriberResponse
    /// The server's clock at the answer, tied to the device's elapsed time.
    public var anchor: ClockAnchor

    /// Makes a cached answer.
    public init(response: SubscriberResponse, anchor: ClockAnchor) {
        self.response = response
        self.anchor = anchor
    }
}
