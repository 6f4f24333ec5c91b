import Crypto
import StoreKeeperWire

/// The Standard Webhooks headers (standardwebhooks.com) every delivery carries beside `StoreKeeper-Signature`, so
/// a receiver can verify it with a stock library (PyPI and npm `standardwebhooks`): `webhook-id` (the event's id,
/// the same on every attempt), `webhook-timestamp` (unix seconds) and `webhook-signature`
/// (`v1,<base64 HMAC-SHA256(key, "<id>.<timestamp>.<raw body>")>`).
///
/// The key is the secret's own: for a `whsec_<base64>` secret (every secret the API makes), the bytes the base64
/// names, as those libraries read it; for a secret chosen in the configuration file in another form, its UTF-8
/// bytes (a receiver passes it to the library as `whsec_` and its base64).
enum StandardWebhookSignature {
    /// The three headers' names.
    static let idHeader = "webhook-id"
    static let timestampHeader = "webhook-timestamp"
    static let signatureHeader = "webhook-signature"

    /// The HMAC key of `secret`.
    static func key(secret: String) -> [UInt8] {
        if secret.hasPrefix("whsec_"), let decoded = Base64.decode(secret.dropFirst(6)), !decoded.isEmpty {
            return decoded
        }
        return Array(secret.utf8)
    }

    /// The `webhook-signature` value for a delivery of `body`, event `id`, sent at `timestamp`.
    static func value(secret: String, id: String, timestamp: Int64, body: some Collection<UInt8>) -> String {
        var hmac = HMAC<SHA256>(key: SymmetricKey(data: key(secret: secret)))
        hmac.update(data: Array("\(id).\(timestamp).".utf8))
        let hashed: Void? = body.withContiguousStorageIfAvailable { hmac.update(data: UnsafeRawBufferPointer($0)) }
        if hashed == nil { hmac.update(data: Array(body)) }
        return "v1," + Base64.standardEncode(Array(hmac.finalize().withUnsafeBytes { Array($0) }))
    }

    /// The three headers for a delivery.
    static func headers(secret: String, id: String, timestamp: Int64, body: some Collection<UInt8>)
        -> [(String, String)]
    {
        [
            (idHeader, id), (timestampHeader, String(timestamp)),
            (signatureHeader, value(secret: secret, id: id, timestamp: timestamp, body: body)),
        ]
    }
}
