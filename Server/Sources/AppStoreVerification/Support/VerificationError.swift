/// Why a piece of evidence was refused.
///
/// Errors are values: a small ``Code`` that programs switch on (equal by code) plus a human reason naming
/// the field and value that failed. Codes are static members so new ones can be added without breaking callers.
///
/// ```swift
/// do { _ = try await verifier.verifyTransaction(token) }
/// catch let error as VerificationError where error.code == .invalidSignature { … }
/// ```
public struct VerificationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: Hashable, Sendable, CustomStringConvertible, RawRepresentable {
        /// A stable, snake_case identifier, used in JSON output and logs.
        public let rawValue: String
        /// Makes a code from its identifier.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The identifier.
        public var description: String { rawValue }

        /// The input is not base64, not a compact JWS, truncated, or otherwise not the expected structure.
        public static let malformed = Code(rawValue: "malformed")
        /// The JWS header's `alg` is missing or not ES256.
        public static let algorithmNotAllowed = Code(rawValue: "algorithm_not_allowed")
        /// The signature does not match the signed bytes (tampered payload or signature).
        public static let invalidSignature = Code(rawValue: "invalid_signature")
        /// The chain does not end at a pinned root (look-alike or self-made chains).
        public static let untrustedRoot = Code(rawValue: "untrusted_root")
        /// The chain's own signatures or structure do not hold (e.g. a foreign leaf under Apple's intermediate).
        public static let invalidChain = Code(rawValue: "invalid_chain")
        /// The `x5c` header does not hold exactly the expected number of certificates.
        public static let wrongChainLength = Code(rawValue: "wrong_chain_length")
        /// An intermediate or leaf lacks Apple's marker OID.
        public static let missingAppleExtension = Code(rawValue: "missing_apple_extension")
        /// A certificate is not valid at the validation time.
        public static let certificateExpired = Code(rawValue: "certificate_not_valid_at_time")
        /// A certificate could not be parsed.
        public static let malformedCertificate = Code(rawValue: "malformed_certificate")
        /// The signature is valid but the payload is not the expected JSON.
        public static let malformedPayload = Code(rawValue: "malformed_payload")
        /// Xcode-signed data reached a verifier that does not accept it.
        public static let xcodeNotAllowed = Code(rawValue: "xcode_not_allowed")
        /// The bundle id differs from the expected one.
        public static let unexpectedBundleID = Code(rawValue: "unexpected_bundle_id")
        /// The environment differs from the expected one.
        public static let unexpectedEnvironment = Code(rawValue: "unexpected_environment")
        /// The app Apple id differs from the expected one.
        public static let unexpectedAppAppleID = Code(rawValue: "unexpected_app_apple_id")
        /// The app version differs from the expected one.
        public static let unexpectedAppVersion = Code(rawValue: "unexpected_app_version")
        /// The receipt's SHA-1 device hash does not match the device.
        public static let deviceHashMismatch = Code(rawValue: "device_hash_mismatch")
        /// The PKCS#7 content or signature algorithm is one we do not accept.
        public static let unsupportedAlgorithm = Code(rawValue: "unsupported_algorithm")
        /// The input is too large to be evidence.
        public static let inputTooLarge = Code(rawValue: "input_too_large")
    }

    /// What kind of failure.
    public var code: Code
    /// What failed and where, naming the field and value.
    public var reason: String

    /// Makes an error.
    /// - Parameters:
    ///   - code: The kind of failure.
    ///   - reason: A human explanation naming the field and value.
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    /// `code: reason`.
    public var description: String { "\(code): \(reason)" }

    /// Errors are equal when their codes are.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    /// Hashes the code only.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
