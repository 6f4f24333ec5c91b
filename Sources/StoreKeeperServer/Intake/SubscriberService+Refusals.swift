import Crypto
import Foundation

extension SubscriberService {
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
                claimedBundleID: Self.claimedBundleID(body) ?? "", code: error.code, reason: error.message,
                bodyDigest: SHA256.hash(data: body).map { String(format: "%02x", $0) }.joined(), receivedAt: now()))
    }

    /// The app a notification body names, unverified: its V2 payload's `bundleId`, or a V1 body's `bid`.
    static func claimedBundleID(_ body: Data) -> String? {
        if let signedPayload = NotificationRouting.signedPayload(inBody: body) {
            return NotificationRouting.bundleID(token: signedPayload)
        }
        guard let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] else { return nil }
        if let signedPayload = object["signedPayload"] as? String {
            return NotificationRouting.bundleID(token: signedPayload)
        }
        return object["bid"] as? String
    }
}
