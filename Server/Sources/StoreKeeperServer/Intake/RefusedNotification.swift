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

    /// Makes a record; the claim, the code and the reason are cut to 200, 100 and 300 characters.
    init(claimedBundleID: String, code: String, reason: String, bodyDigest: String, receivedAt: Date) {
        self.claimedBundleID = String(claimedBundleID.prefix(200))
        self.code = String(code.prefix(100))
        self.reason = String(reason.prefix(300))
        self.bodyDigest = bodyDigest
        self.receivedAt = receivedAt
    }
}
