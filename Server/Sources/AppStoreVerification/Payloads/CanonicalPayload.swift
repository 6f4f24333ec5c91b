import AppStoreModels

/// A signed-data payload model that can be read straight from parsed JSON when Apple spelled every field the
/// usual way, without `JSONDecoder`.
///
/// `Codable` decoding of these models was a tenth of the server's CPU while ingesting notifications (each
/// of ~30 optional fields goes through keyed and single-value containers). The canonical reading handles only
/// the spellings whose meaning is not in doubt — strings as strings, integers as plain JSON integers,
/// booleans as `true`/`false`, `null` or absent for nothing — and declines anything else (a number written
/// as text, fractional milliseconds, a missing required field, a nested object it does not read). A
/// declined payload is decoded by `JSONDecoder` as before, so both readings always give the same value.
protocol CanonicalPayload {
    /// Reads the payload from a JSON object's members, or returns `nil` when a field is not in canonical form.
    /// - Parameter members: The object's members, in document order (keys unique).
    init?(canonical members: [(String, JSONValue)])
}

extension CanonicalPayload {
    /// Reads a payload when it is one JSON object in canonical form.
    /// - Parameter payload: The JSON bytes.
    /// - Returns: The payload, or `nil` when it must be decoded by `JSONDecoder`.
    static func canonical(_ payload: [UInt8]) -> Self? {
        guard case .object(let members)? = try? JSONValue.parse(payload) else { return nil }
        return Self(canonical: members)
    }
}
