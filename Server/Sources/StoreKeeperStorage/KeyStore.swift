/// The API keys as stored (by hash), made equal to the configured keys at start.
public protocol KeyStore: Sendable {
    /// Makes the stored API keys exactly `keys` (record by key hash) in one transaction: keys not in it are deleted.
    func replaceAPIKeys(_ keys: [String: APIKeyRecord]) async throws

    /// An API key by its hash.
    func apiKey(hash: String) async throws -> APIKeyRecord?
}
