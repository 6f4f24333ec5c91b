/// Upload Message's body: a retention message's text.
/// https://developer.apple.com/documentation/retentionmessaging/uploadmessagerequestbody
public struct UploadMessageRequestBody: Codable, Sendable, Hashable {
    /// The header (at most 66 characters).
    public var header: String
    /// The body (at most 144 characters).
    public var body: String

    /// Makes a body.
    public init(header: String, body: String) {
        self.header = header
        self.body = body
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
