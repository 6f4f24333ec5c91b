import Foundation
import Hummingbird
import StoreKeeperStorage
import Synchronization

/// Checks `Authorization: Bearer <key>`: keys are looked up by their SHA-256, never stored or logged in clear.
final class Authenticator: Sendable {
    let store: any Store
    /// Keys already seen valid, by hash (keys are only added at start, so a positive answer stays true).
    let known = Mutex<[String: APIKeyRecord]>([:])

    init(store: any Store) {
        self.store = store
    }

    static func hash(_ key: String) -> String {
        HexDigest.sha256(key)
    }

    /// The caller, if the key is valid and allowed.
    /// - Parameters:
    ///   - request: The request.
    ///   - secretRequired: Whether only secret keys may call.
    /// - Returns: The key's record.
    /// - Throws: 401 for a missing or unknown key, 403 for a public key on a secret endpoint.
    func authorize(_ request: Request, secretRequired: Bool) async throws -> APIKeyRecord {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer "), header.count < 512 else {
            throw APIError(.unauthorized, "missing_api_key", "send Authorization: Bearer <api key>")
        }
        guard let record = try await record(forKey: String(header.dropFirst(7))) else {
            throw APIError(.unauthorized, "invalid_api_key", "the API key is not valid")
        }
        if secretRequired, record.kind != .secret {
            throw APIError(.forbidden, "secret_key_required", "this endpoint needs a secret key")
        }
        return record
    }

    /// The record of a key given in clear (a bearer token, the dashboard's sign-in form), if the key is valid.
    func record(forKey key: String) async throws -> APIKeyRecord? {
        let hash = Self.hash(key)
        if let found = known.withLock({ $0[hash] }) { return found }
        guard let stored = try await store.apiKey(hash: hash) else { return nil }
        known.withLock { cache in
            if cache.count < 10_000 { cache[hash] = stored }
        }
        return stored
    }
}
