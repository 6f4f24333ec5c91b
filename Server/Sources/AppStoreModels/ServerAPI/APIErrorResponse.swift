/// The error body of the App Store Server API: `{errorCode, errorMessage}`.
public struct APIErrorResponse: Codable, Sendable, Hashable {
    /// Apple's numeric error code (e.g. 4040010 transaction id not found).
    @Lenient public var errorCode: Int64?
    /// Apple's message.
    @Lenient public var errorMessage: String?

    /// Makes an empty value; set the fields you need.
    public init() {}
}
