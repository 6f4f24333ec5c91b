public import Foundation

/// The JSON of the `/v1` API, shared by the server and its clients: snake_case keys (each type names them),
/// RFC 3339 dates in whole seconds (`2026-01-01T00:05:00Z`), sorted keys and unescaped slashes on output.
public enum APICoding {
    /// An encoder for API bodies.
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    /// A decoder for API bodies.
    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
