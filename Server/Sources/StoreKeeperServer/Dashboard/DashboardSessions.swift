import Foundation
import StoreKeeperAPI
import Synchronization

/// Signed-in dashboard sessions, in memory: a random token (the cookie) names the project's app and the session's
/// CSRF token. A session lasts 12 hours; signing out ends it, and so does its key leaving the configuration.
/// Restarting the server signs everyone out.
final class DashboardSessions: Sendable {
    /// One session.
    struct Session: Sendable {
        /// The app whose secret key signed in (its project is shown).
        var bundleID: String
        /// The SHA-256 of that key: the session ends when the key is no longer valid (rotated out).
        var keyHash: String
        /// The token every form of the session carries.
        var csrf: String
        /// When it ends.
        var expiresAt: Date
        /// The scope of the key that signed in, as the store has it now (set on every request: a key whose scope
        /// changed at a restart shows its new one at once).
        var scope: APIEndpoint.Scope = .read

        /// The CSRF token for a form that does what `endpoint` does, or `nil` when this session's key may not
        /// (the page then shows what it would edit, without the form).
        func formToken(for endpoint: APIEndpoint) -> String? {
            guard let needed = endpoint.scope, !scope.includes(needed) else { return csrf }
            return nil
        }
    }

    /// How long a session lasts.
    static let lifetime: TimeInterval = 12 * 3_600
    /// The most sessions kept (the oldest are dropped first).
    static let capacity = 10_000

    let sessions = Mutex<[String: Session]>([:])
    let now: @Sendable () -> Date

    init(now: @escaping @Sendable () -> Date) {
        self.now = now
    }

    /// A new session for an app: its cookie token and the session.
    func create(bundleID: String, keyHash: String) -> (token: String, session: Session) {
        let token = Self.randomToken()
        let session = Session(
            bundleID: bundleID, keyHash: keyHash, csrf: Self.randomToken(), expiresAt: now() + Self.lifetime)
        let instant = now()
        sessions.withLock { all in
            all = all.filter { $0.value.expiresAt > instant }
            if all.count >= Self.capacity, let oldest = all.min(by: { $0.value.expiresAt < $1.value.expiresAt }) {
                all[oldest.key] = nil
            }
            all[token] = session
        }
        return (token, session)
    }

    /// The live session a cookie token names, if any.
    func session(_ token: String?) -> Session? {
        guard let token else { return nil }
        let instant = now()
        return sessions.withLock { all in
            guard let session = all[token] else { return nil }
            guard session.expiresAt > instant else {
                all[token] = nil
                return nil
            }
            return session
        }
    }

    /// Ends a session.
    func remove(_ token: String) { _ = sessions.withLock { $0.removeValue(forKey: token) } }

    /// 32 random bytes in hex.
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }
}
