/// The outcome of one notification delivery attempt (Get Notification History).
///
/// Unknown raw values decode to ``unknown(_:)`` instead of failing.
public enum SendAttemptResult: OpenEnum {
    /// Delivery outcome `SUCCESS`.
    case success
    /// Delivery outcome `TIMED_OUT`.
    case timedOut
    /// Delivery outcome `TLS_ISSUE`.
    case tlsIssue
    /// Delivery outcome `CIRCULAR_REDIRECT`.
    case circularRedirect
    /// Delivery outcome `NO_RESPONSE`.
    case noResponse
    /// Delivery outcome `SOCKET_ISSUE`.
    case socketIssue
    /// Delivery outcome `UNSUPPORTED_CHARSET`.
    case unsupportedCharset
    /// Delivery outcome `INVALID_RESPONSE`.
    case invalidResponse
    /// Delivery outcome `PREMATURE_CLOSE`.
    case prematureClose
    /// Delivery outcome `UNSUCCESSFUL_HTTP_RESPONSE_CODE`.
    case unsuccessfulHTTPResponseCode
    /// Delivery outcome `OTHER`.
    case other
    /// A value Apple added after this code was written.
    case unknown(String)

    /// Every known case with its raw value.
    public static let known: [(SendAttemptResult, String)] = [
        (.success, "SUCCESS"),
        (.timedOut, "TIMED_OUT"),
        (.tlsIssue, "TLS_ISSUE"),
        (.circularRedirect, "CIRCULAR_REDIRECT"),
        (.noResponse, "NO_RESPONSE"),
        (.socketIssue, "SOCKET_ISSUE"),
        (.unsupportedCharset, "UNSUPPORTED_CHARSET"),
        (.invalidResponse, "INVALID_RESPONSE"),
        (.prematureClose, "PREMATURE_CLOSE"),
        (.unsuccessfulHTTPResponseCode, "UNSUCCESSFUL_HTTP_RESPONSE_CODE"),
        (.other, "OTHER"),
    ]

    /// The raw value when this is ``unknown(_:)``.
    public var unknownRawValue: String? {
        if case .unknown(let raw) = self { return raw }
        return nil
    }
}
