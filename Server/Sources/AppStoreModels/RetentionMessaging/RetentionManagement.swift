/// Upload Message's body: a retention message's text, and for a text-based message an optional image and bullet
/// points (Apple refuses both on a promotional-offer or switch-plan message when it shows one).
/// https://developer.apple.com/documentation/retentionmessaging/uploadmessagerequestbody
public struct UploadMessageRequestBody: Codable, Sendable, Hashable {
    /// The header (at most 66 characters).
    public var header: String
    /// The body (at most 144 characters).
    public var body: String
    /// The image above the body, with its alternative text.
    public var image: UploadMessageImage?
    /// At most five bullet points, each with its icon.
    public var bulletPoints: [BulletPoint]?
    /// `ABOVE_BODY` (the default) or `ABOVE_IMAGE` (needs an image).
    public var headerPosition: String?

    /// Makes a body.
    public init(
        header: String, body: String, image: UploadMessageImage? = nil, bulletPoints: [BulletPoint]? = nil,
        headerPosition: String? = nil
    ) {
        self.header = header
        self.body = body
        self.image = image
        self.bulletPoints = bulletPoints
        self.headerPosition = headerPosition
    }

    /// Whether the message shows an image (its own or a bullet point's): Apple shows such a message only as a
    /// text-based one.
    public var hasImages: Bool { image != nil || !(bulletPoints ?? []).isEmpty }
}

/// An uploaded image and its alternative text, placed in a message.
/// https://developer.apple.com/documentation/retentionmessaging/uploadmessageimage
public struct UploadMessageImage: Codable, Sendable, Hashable {
    /// The image's identifier (a UUID given to Upload Image).
    public var imageIdentifier: String
    /// What the image shows, for VoiceOver (at most 150 characters).
    public var altText: String

    /// Makes a reference.
    public init(imageIdentifier: String, altText: String) {
        self.imageIdentifier = imageIdentifier
        self.altText = altText
    }
}

/// One bullet point of a message: its text and its icon (an image uploaded with the `BULLET_POINT` size).
/// https://developer.apple.com/documentation/retentionmessaging/bulletpoint
public struct BulletPoint: Codable, Sendable, Hashable {
    /// The text (at most 66 characters).
    public var text: String
    /// The icon's identifier.
    public var imageIdentifier: String
    /// The icon's alternative text (at most 150 characters).
    public var altText: String

    /// Makes a bullet point.
    public init(text: String, imageIdentifier: String, altText: String) {
        self.text = text
        self.imageIdentifier = imageIdentifier
        self.altText = altText
    }
}

/// Get Image List's answer: every uploaded image with its review state.
/// https://developer.apple.com/documentation/retentionmessaging/getimagelistresponse
public struct GetImageListResponse: Codable, Sendable, Hashable {
    /// The images.
    public var imageIdentifiers: [Item]?

    /// One image.
    public struct Item: Codable, Sendable, Hashable {
        /// Its identifier (a UUID).
        public var imageIdentifier: String?
        /// `PENDING`, `APPROVED` or `REJECTED` (open: a new state decodes).
        public var imageState: String?
        /// `FULL_SIZE` or `BULLET_POINT`.
        public var imageSize: String?
    }
}

/// Get Message List's answer: every uploaded message with its review state.
/// https://developer.apple.com/documentation/retentionmessaging/getmessagelistresponse
public struct GetMessageListResponse: Codable, Sendable, Hashable {
    /// The messages.
    public var messageIdentifiers: [Item]?

    /// One message.
    public struct Item: Codable, Sendable, Hashable {
        /// Its identifier (a UUID).
        public var messageIdentifier: String?
        /// `PENDING`, `APPROVED` or `REJECTED` (open: a new state decodes).
        public var messageState: String?
    }
}

/// Configure Default Message's body and Get Default Message's answer.
/// https://developer.apple.com/documentation/retentionmessaging/defaultconfigurationrequest
public struct DefaultConfiguration: Codable, Sendable, Hashable {
    /// The approved message shown when the real-time answer fails.
    public var messageIdentifier: String

    /// Makes a body.
    public init(messageIdentifier: String) { self.messageIdentifier = messageIdentifier }
}

/// Configure Realtime URL's body and Get Realtime URL's answer.
/// https://developer.apple.com/documentation/retentionmessaging/realtimeurlrequest
public struct RealtimeURLBody: Codable, Sendable, Hashable {
    /// The Get Retention Message endpoint's URL (at most 256 characters).
    public var realtimeURL: String

    /// Makes a body.
    public init(realtimeURL: String) { self.realtimeURL = realtimeURL }
}

/// Get Performance Test Results' answer (the fields StoreKeeper reads).
/// https://developer.apple.com/documentation/retentionmessaging/performancetestresultresponse
public struct PerformanceTestResult: Codable, Sendable, Hashable {
    /// `PENDING`, `PASS` or `FAIL`.
    public var result: String?
    /// The URL tested.
    public var target: String?
    /// The share of requests answered in time, in percent.
    public var successRate: Int?
    /// Requests not yet answered.
    public var numPending: Int?
    /// Response times in milliseconds.
    public var responseTimes: ResponseTimes?
    /// Failed requests by reason (`TIMED_OUT`…).
    public var failures: [String: Int]?

    /// https://developer.apple.com/documentation/retentionmessaging/performancetestresponsetimes
    public struct ResponseTimes: Codable, Sendable, Hashable {
        /// The mean.
        public var average: Int?
        /// The median.
        public var p50: Int?
        /// The 90th percentile.
        public var p90: Int?
        /// The 95th percentile.
        public var p95: Int?
        /// The 99th percentile.
        public var p99: Int?
    }
}
