/// Every error answer: `{"error": {"code", "message", "retry_after"?}}`.
public struct ErrorBody: Codable, Sendable, Hashable, Error {
    /// The error.
    public var error: ErrorDetail

    /// Makes a body.
    public init(error: ErrorDetail) { self.error = error }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable { case error }
}

/// What failed: a stable code, a message that names the field and value, and when a retry may succeed.
public struct ErrorDetail: Codable, Sendable, Hashable {
    /// A stable snake_case code (``APIErrorCode`` names the ones clients act on).
    public var code: APIErrorCode
    /// What was wrong, for people (never a secret).
    public var message: String
    /// Seconds after which the same request may succeed (Apple unavailable or slow).
    public var retryAfter: Int?

    /// Makes a detail.
    public init(code: APIErrorCode, message: String, retryAfter: Int? = nil) {
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
    }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case code, message, retryAfter = "retry_after"
    }
}

extension ErrorBody: APIDocumented {
    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .error: .required(.type(ErrorDetail.self))
        }
    }
}

extension ErrorDetail: APIDocumented {
    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .code:
            .required(
                .oneOf(APIErrorCode.declared.map(\.rawValue).sorted()).described(
                    "A stable code; StoreKeeperAPI's APIErrorCode declares each one."))
        case .message: .required(.text)
        case .retryAfter:
            .optional(
                .integer.described(
                    "Seconds after which the same request may succeed (Apple unavailable or too slow); also the Retry-After header."
                ))
        }
    }
}
