/// A retention message uploaded to the simulator as to Apple's Upload Message endpoint, with the review state
/// Apple gives it (`PENDING` until approved or rejected: `POST /simulator/v1/apps/{bundleID}/messages/{id}/approve`).
public struct SimulatedRetentionMessage: Sendable, Hashable, Codable {
    /// The header text (at most 66 characters).
    public var header: String
    /// The body text (at most 144 characters).
    public var body: String
    /// `PENDING`, `APPROVED` or `REJECTED`.
    public var state: String

    /// Makes a message, pending review.
    public init(header: String, body: String, state: String = "PENDING") {
        self.header = header
        self.body = body
        self.state = state
    }
}
