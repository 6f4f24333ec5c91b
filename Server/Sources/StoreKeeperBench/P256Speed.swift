import Crypto
import Foundation

/// How long one raw P-256 signature check takes on this machine right now: the load report's yardstick for
/// the machine's speed, since a shared virtual machine runs at different speeds from minute to minute.
public struct P256Speed: Sendable {
    /// Microseconds per verify.
    public var microseconds: Double

    /// Measures for about `seconds` on the calling thread, as `storekeeper-lab bench` measures `p256.verify`.
    /// - Parameter seconds: The time to spend.
    /// - Returns: The speed.
    public static func measure(seconds: Double = 0.3) -> P256Speed {
        let key = P256.Signing.PrivateKey()
        let publicKey = key.publicKey
        let digest = SHA256.hash(data: Data((0..<1024).map { UInt8(truncatingIfNeeded: $0) }))
        guard let signature = try? key.signature(for: digest) else { return P256Speed(microseconds: 0) }
        let result = BenchRunner(seconds: seconds).measure("p256.verify") {
            precondition(publicKey.isValidSignature(signature, for: digest))
        }
        return P256Speed(microseconds: result.microsecondsPerOp)
    }
}
