import Crypto
import Foundation

/// Whether `header` (StoreKeeper-Signature) signs `body` with `secret`, sent at most `tolerance` seconds ago.
func isValidStoreKeeperSignature(_ header: String, body: Data, secret: String, tolerance: TimeInterval = 300) -> Bool {
    var fields: [String: String] = [:]
    for part in header.split(separator: ",") {
        let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
        if pair.count == 2 { fields[pair[0]] = pair[1] }
    }
    guard let t = fields["t"], let sent = TimeInterval(t), let v1 = fields["v1"],
        abs(Date().timeIntervalSince1970 - sent) <= tolerance
    else { return false }
    let mac = HMAC<SHA256>.authenticationCode(
        for: Data("\(t).".utf8) + body, using: SymmetricKey(data: Data(secret.utf8)))
    let expected = Array(mac.map { String(format: "%02x", $0) }.joined().utf8)
    let given = Array(v1.utf8)
    return given.count == expected.count && zip(given, expected).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
}
