import Crypto
import Foundation
import StoreKeeperStorage

extension IntakeService {
    /// Keeps a refused notification in this process's notification log (``RefusalLog``, memory only): the app it
    /// claimed, the refusal's code and reason, and its body's digest (never the body). Only refusals of the
    /// notification itself are kept (it did not verify, named an app not served here, or was not a notification);
    /// a failure of ours is not a refusal.
    /// - Parameters:
    ///   - body: The body as received.
    ///   - error: Why it was refused.
    func recordRefused(_ body: Data, error: ServiceError) {
        guard [.invalidInput, .unknownApp, .unverifiable, .unauthenticated].contains(error.kind) else { return }
        refusals.add(
            RefusedNotification(
                claimedBundleID: NotificationRouting.claimedBundleID(body) ?? "", code: error.code.rawValue,
                reason: error.message,
                bodyDigest: HexDigest.hex(SHA256.hash(data: body)), receivedAt: now()))
    }
}
