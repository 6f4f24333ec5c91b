public import AppStoreModels

/// A retention message uploaded to the simulator as to Apple's Upload Message endpoint, with the review state
/// Apple gives it (`PENDING` until approved or rejected: `POST /simulator/v1/apps/{bundleID}/messages/{id}/approve`).
public struct SimulatedRetentionMessage: Sendable, Hashable, Codable {
    /// The header text (at most 66 characters).
    public var header: String
    /// The body text (at most 144 characters).
    public var body: String
    /// `PENDING`, `APPROVED` or `REJECTED`.
    public var state: String
    /// The image above the body, if any.
    public var image: UploadMessageImage?
    /// The bullet points, if any.
    public var bulletPoints: [BulletPoint]?
    /// `ABOVE_BODY` or `ABOVE_IMAGE`, if given.
    public var headerPosition: String?

    /// Makes a message, pending review.
    public init(_ upload: UploadMessageRequestBody, state: String = "PENDING") {
        self.header = upload.header
        self.body = upload.body
        self.state = state
        self.image = upload.image
        self.bulletPoints = upload.bulletPoints
        self.headerPosition = upload.headerPosition
    }

    /// The identifiers of the images the message shows (its image, then its bullet points' icons), lowercased.
    public var imageIDs: [String] {
        ([image?.imageIdentifier].compactMap { $0 } + (bulletPoints ?? []).map(\.imageIdentifier)).map {
            $0.lowercased()
        }
    }
}
