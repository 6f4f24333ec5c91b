import AppStoreModels
public import Foundation

/// A JWS whose signature and chain were verified: its payload may now be decoded and trusted.
public struct VerifiedSignedData: Sendable {
    /// The payload JSON bytes, exactly as signed.
    public var payload: [UInt8]
    /// The payload's `signedDate`, when present.
    public var signedDate: Date?
    /// The time the chain was checked at.
    public var validationTime: Date
    /// Whether it was verified by the Xcode verifier (a self-signed local key, no Apple chain).
    public var isXcodeSigned: Bool

    /// Decodes the payload: Apple's usual spellings straight from the parsed JSON (``CanonicalPayload``),
    /// anything else with `JSONDecoder` — the same value either way.
    /// - Parameter type: The payload type.
    /// - Returns: The decoded payload.
    /// - Throws: ``VerificationError/Code/malformedPayload`` naming the field that did not decode.
    public func decode<Payload: Decodable>(_ type: Payload.Type) throws -> Payload {
        if let canonical = type as? any CanonicalPayload.Type, let value = canonical.canonical(payload) as? Payload {
            return value
        }
        return try decodeWithCodable(type)
    }

    /// Decodes the payload with `JSONDecoder` only.
    func decodeWithCodable<Payload: Decodable>(_ type: Payload.Type) throws -> Payload {
        do {
            return try JSONDecoder().decode(type, from: Data(payload))
        } catch let error as DecodingError {
            throw VerificationError(.malformedPayload, "\(Payload.self): \(DecodingErrorDescription.describe(error))")
        } catch {
            throw VerificationError(.malformedPayload, "\(Payload.self): \(error)")
        }
    }
}

/// Turns a `DecodingError` into a sentence naming the field.
enum DecodingErrorDescription {
    static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let text = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            return text.isEmpty ? "the top level" : text
        }
        switch error {
        case .keyNotFound(let key, let context): return "missing field \(path(context)).\(key.stringValue)"
        case .typeMismatch(_, let context): return "field \(path(context)): \(context.debugDescription)"
        case .valueNotFound(_, let context): return "field \(path(context)) is null"
        case .dataCorrupted(let context): return "field \(path(context)): \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }
}
