import Foundation

/// Reads `signedDate` from a payload before it is decoded into a model, to choose the chain validation time.
enum SignedDate {
    /// The payload's `signedDate` in milliseconds (fractional in Xcode data), or `nil` when absent.
    /// - Throws: ``VerificationError/Code/malformedPayload`` when the payload is not a JSON object or the
    ///   field is not a number.
    static func read(_ payload: [UInt8]) throws -> Date? {
        let json: JSONValue
        do { json = try JSONValue.parse(payload) } catch let error as VerificationError {
            throw VerificationError(.malformedPayload, "payload: \(error.reason)")
        }
        guard case .object = json else { throw VerificationError(.malformedPayload, "payload is not a JSON object") }
        guard let field = json["signedDate"] else { return nil }
        guard let milliseconds = field.doubleValue, milliseconds.isFinite else {
            throw VerificationError(.malformedPayload, "payload signedDate is not a number")
        }
        return Date(timeIntervalSince1970: milliseconds / 1000)
    }
}
