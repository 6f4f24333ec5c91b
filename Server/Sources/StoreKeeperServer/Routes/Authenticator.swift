import Foundation
import Hummingbird
import StoreKeeperAPI
import StoreKeeperStorage
import Synchronization

/// Checks `Authorization: Bearer <key>`: keys are looked up by their SHA-256, never stored or logged in clear.
///
/// A positive answer is kept for ``recheckAfter`` and then asked of the store again, so a key another replica
/// removed at its start (the stored keys follow the newest configuration) stops working here within that time.
final class Authenticator: Sendable {
    let store: any KeyStore
    /// How long a key seen valid is believed without asking the store again. Default 5 seconds.
    let recheckAfter: Duration
    /// Keys seen valid, by hash, with when the store said so.
    let known = Mutex<[String: (record: APIKeyRecord, checkedAt: ContinuousClock.Instant)]>([:])

    /// The most keys kept (a server has a handful; the cap only bounds memory).
    static let capacity = 10_000

    init(store: any KeyStore, recheckAfter: Duration = .seconds(5)) {
        self.store = store
        self.recheckAfter = recheckAfter
    }

    static func hash(_ key: String) -> String {
        HexDigest.sha256(key)
    }

    /// The caller, if the key is valid and allowed.
    /// - Parameters:
    ///   - request: The request.
    ///   - scope: The secret key's scope the route needs; `nil` when a public key may call it too.
    /// - Returns: The key's record.
    /// - Throws: 401 for a missing or unknown key; 403 for a public key on a secret endpoint, or a secret key whose
    ///   scope does not include the route's (`insufficient_scope`, naming both).
    func authorize(_ request: Request, needs scope: APIEndpoint.Scope?) async throws -> APIKeyRecord {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer "), header.count < 512 else {
            throw APIError(.unauthorized, .missingAPIKey, "send Authorization: Bearer <api key>")
        }
        guard let record = try await record(forKey: String(header.dropFirst(7))) else {
            throw APIError(.unauthorized, .invalidAPIKey, "the API key is not valid")
        }
        guard let scope else { return record }
        guard record.kind == .secret else {
            throw APIError(.forbidden, .secretKeyRequired, "this endpoint needs a secret key")
        }
        let held = Self.scope(of: record)
        guard held.includes(scope) else {
            throw APIError(
                .forbidden, .insufficientScope,
                "this endpoint needs a secret key of scope \(scope.rawValue) or wider; this key's scope is \(held.rawValue)"
            )
        }
        return record
    }

    /// A stored key's scope in the API's terms (a public key's: `read`).
    static func scope(of record: APIKeyRecord) -> APIEndpoint.Scope {
        guard record.kind == .secret else { return .read }
        return switch record.scope {
        case .read: .read
        case .support: .support
        case .admin: .admin
        }
    }

    /// The record of a key given in clear (a bearer token, the dashboard's sign-in form), if the key is valid.
    func record(forKey key: String) async throws -> APIKeyRecord? {
        try await record(forHash: Self.hash(key))
    }

    /// The record of a key by its hash (a dashboard session remembers the hash of the key that made it), if the
    /// key is still valid.
    func record(forHash hash: String) async throws -> APIKeyRecord? {
        let instant = ContinuousClock.now
        if let found = known.withLock({ $0[hash] }), found.checkedAt.duration(to: instant) < recheckAfter {
            return found.record
        }
        guard let stored = try await store.apiKey(hash: hash) else {
            known.withLock { _ = $0.removeValue(forKey: hash) }
            return nil
        }
        known.withLock { cache in
            if cache.count < Self.capacity || cache[hash] != nil { cache[hash] = (stored, instant) }
        }
        return stored
    }
}
