public import StoreKeeperStorage

/// Fresh API keys: a `pk_` or `sk_` prefix and 43 base62 characters (256 random bits), well over
/// ``ServerConfiguration/minimumKeyLength``.
public enum APIKeyGenerator {
    static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")

    /// A new random key.
    /// - Parameters:
    ///   - kind: Public (`pk_…`) or secret (`sk_…`).
    ///   - generator: The randomness (the system's by default).
    /// - Returns: The key.
    public static func key<G: RandomNumberGenerator>(_ kind: APIKeyRecord.Kind, using generator: inout G) -> String {
        // 43 base62 digits carry 256.07 bits; each digit is drawn uniformly (no modulo bias).
        let digits = (0..<43).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] }
        return (kind == .public ? "pk_" : "sk_") + String(digits)
    }

    /// A new random key from the system's generator.
    public static func key(_ kind: APIKeyRecord.Kind) -> String {
        var generator = SystemRandomNumberGenerator()
        return key(kind, using: &generator)
    }
}
