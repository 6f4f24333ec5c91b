/// A retention image uploaded to the simulator as to Apple's Upload Image endpoint: its size class and the review
/// state Apple gives it (`PENDING` until `POST /simulator/v1/apps/{bundleID}/images/{id}/approve` or `…/reject`).
/// The picture itself is checked on upload and not kept.
public struct SimulatedRetentionImage: Sendable, Hashable, Codable {
    /// `FULL_SIZE` or `BULLET_POINT`.
    public var size: String
    /// `PENDING`, `APPROVED` or `REJECTED`.
    public var state: String

    /// Makes an image, pending review.
    public init(size: String, state: String = "PENDING") {
        self.size = size
        self.state = state
    }
}
