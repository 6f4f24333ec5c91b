public import AppStoreVerification
import Foundation

/// The verdict on one piece of input: what it is, whether it verified, and what it says.
public struct InspectionReport: Sendable {
    /// What the input is.
    public var kind: EvidenceKind
    /// Whether it verified.
    public var valid: Bool
    /// The environment it came from, when known.
    public var environment: String?
    /// The payload with Apple's field names, as JSON-compatible values (`[String: Any]`, arrays, strings,
    /// numbers, booleans); nested JWS decoded in place. Encoded with `JSONSerialization`.
    public var payload: JSONObject?
    /// Why it did not verify.
    public var error: Failure?
    /// The typed evidence, when it verified.
    public var evidence: InspectedEvidence?
    /// Short human-readable facts for the summary view, in order.
    public var facts: [(String, String)] = []

    /// A failure code and message.
    public struct Failure: Sendable, Hashable {
        /// A stable snake_case code (a `VerificationError` code or an inspection code).
        public var code: Code
        /// What failed, naming the field and value.
        public var message: String

        /// Why an input did not verify: a verification code, or one of the inspection's own (each a constant
        /// here; none is spelled where it is reported).
        public struct Code: Sendable, Hashable, CustomStringConvertible {
            /// The snake_case text (the `--json` report's `error.code`).
            public let rawValue: String
            private init(_ rawValue: String) { self.rawValue = rawValue }
            /// The snake_case text.
            public var description: String { rawValue }

            /// Verification's own code.
            public static func verification(_ code: VerificationError.Code) -> Code { Code(code.rawValue) }
            /// A `verifyReceipt` answer whose `status` is not 0 (`status_21007`).
            public static func appleStatus(_ status: Int) -> Code { Code("status_\(status)") }
            /// The input is none of the kinds the inspector reads.
            public static let unrecognizedInput = Code("unrecognized_input")
            /// The input is of a known kind but cannot be read (not base64, not a JSON object, bad ASN.1).
            public static let malformed = Code("malformed")
            /// The input's JSON payload does not have the shape Apple gives it.
            public static let malformedPayload = Code("malformed_payload")
        }
    }

    /// The `--json` object: `{"kind", "valid", "environment", "payload", "error": {"code", "message"}}`.
    public var jsonObject: [String: Any] {
        [
            "kind": kind.rawValue,
            "valid": valid,
            "environment": environment ?? NSNull(),
            "payload": payload?.value ?? NSNull(),
            "error": error.map { ["code": $0.code.rawValue, "message": $0.message] as [String: Any] } ?? NSNull(),
        ]
    }

    /// The `--json` text, keys sorted so output is stable.
    public func jsonText() throws -> String {
        let data = try JSONSerialization.data(
            withJSONObject: jsonObject, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }

    /// The readable summary.
    public var summary: String {
        var lines = ["kind:        \(kind.rawValue)", "valid:       \(valid ? "yes" : "no")"]
        if let environment { lines.append("environment: \(environment)") }
        if let error { lines.append("error:       \(error.code): \(error.message)") }
        for (name, value) in facts {
            lines.append("\(name.padding(toLength: 12, withPad: " ", startingAt: 0)) \(value)")
        }
        return lines.joined(separator: "\n")
    }
}

/// A JSON-compatible value from `JSONSerialization`, wrapped so it can cross concurrency domains.
public struct JSONObject: @unchecked Sendable {
    /// The value (dictionaries, arrays, strings, numbers, booleans, `NSNull`).
    public let value: Any

    /// Wraps a value; it must not be mutated afterwards.
    public init(_ value: Any) { self.value = value }
}
