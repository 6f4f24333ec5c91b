import Foundation

/// A notification body that was refused (it did not verify, named an app this server does not serve, or was not a
/// notification), as the notification log shows it: what it claimed, why it was refused, and a digest of the body —
/// never the body itself.
struct RefusedNotification: Sendable, Hashable {
    /// The app its payload claimed (unverified; empty when it named none).
    var claimedBundleID: String
    /// The refusal's code (`x5c_chain_invalid`, `unknown_app`, `malformed`…).
    var code: String
    /// The refusal's reason (at most 300 characters).
    var reason: String
    /// Hex SHA-256 of the body as received.
    var bodyDigest: String
    /// When it was received.
    var receivedAt: Date

    /// Makes a record; the claim, the code and the reason are cut to 200, 100 and 300 scalars, each kept to printable
    /// ASCII (any other scalar shows as `?`): they came with a body nobody has verified, so the log shows no bytes
    /// of an attacker's choosing beyond plain text.
    init(claimedBundleID: String, code: String, reason: String, bodyDigest: String, receivedAt: Date) {
        self.claimedBundleID = Self.plain(claimedBundleID, 200)
        self.code = Self.plain(code, 100)
        self.reason = Self.plain(reason, 300)
        self.bodyDigest = bodyDigest
        self.receivedAt = receivedAt
    }

    /// The first `limit` scalars of `text`, each outside printable ASCII (U+0020–U+007E) written as `?`.
    static func plain(_ text: String, _ limit: Int) -> String {
        var kept = String.UnicodeScalarView()
        for scalar in text.unicodeScalars.prefix(limit) {
            kept.append((0x20...0x7E).contains(scalar.value) ? scalar : "?")
        }
        return String(kept)
    }
}
