import Crypto
public import Foundation
import StoreKeeperStorage
import StoreKeeperWire

/// The `StoreKeeper-Signature` header: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`.
/// The timestamp inside the signed text lets a receiver refuse a replayed delivery.
public enum WebhookSignature {
    /// The header's name.
    public static let header = "StoreKeeper-Signature"

    /// The header's value for a body sent at `timestamp`.
    public static func value(secret: String, timestamp: Int64, body: some Collection<UInt8>) -> String {
        "t=\(timestamp),v1=\(hex(secret: secret, timestamp: timestamp, body: body))"
    }

    /// Whether `header` signs `body` with `secret`, at most `tolerance` seconds from `now`.
    public static func isValid(
        _ header: String, secret: String, body: some Collection<UInt8>, now: Date, tolerance: TimeInterval = 300
    ) -> Bool {
        var timestamp: Int64?
        var signatures: [String] = []
        for part in header.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2 else { continue }
            if pair[0] == "t" { timestamp = Int64(pair[1]) }
            if pair[0] == "v1" { signatures.append(pair[1]) }
        }
        guard let timestamp, abs(now.timeIntervalSince1970 - Double(timestamp)) <= tolerance else { return false }
        let expected = Array(hex(secret: secret, timestamp: timestamp, body: body).utf8)
        return signatures.contains { ConstantTime.equal(Array($0.utf8), expected) }
    }

    static func hex(secret: String, timestamp: Int64, body: some Collection<UInt8>) -> String {
        var hmac = HMAC<SHA256>(key: SymmetricKey(data: Array(secret.utf8)))
        hmac.update(data: Array("\(timestamp).".utf8))
        // In place when the body is contiguous (a delivery's buffer, a receiver's): no copy of about 2 kB per event.
        let hashed: Void? = body.withContiguousStorageIfAvailable { hmac.update(data: UnsafeRawBufferPointer($0)) }
        if hashed == nil { hmac.update(data: Array(body)) }
        return hmac.finalize().withUnsafeBytes { HexDigest.hex($0) }
    }
}
