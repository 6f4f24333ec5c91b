import Crypto
import Foundation

/// How long one raw P-256 signature check takes on this machine right now: the load report's yardstick for
/// the machine's speed, since a shared virtual machine runs at different speeds from minute to minute.
struct P256Speed {
    /// Microseconds per verify (the median of several short rounds).
    var microseconds: Double

    /// Measures for about `seconds` on the calling thread.
    /// - Parameter seconds: The time to spend.
    /// - Returns: The speed.
    static func measure(seconds: Double = 0.3) -> P256Speed {
        let key = P256.Signing.PrivateKey()
        let publicKey = key.publicKey
        let message = Data((0..<1024).map { UInt8(truncatingIfNeeded: $0) })
        let digest = SHA256.hash(data: message)
        guard let signature = try? key.signature(for: digest) else { return P256Speed(microseconds: 0) }
        let clock = ContinuousClock()
        let rounds = 9
        var perRound: [Double] = []
        for _ in 0..<rounds {
            let start = clock.now
            var count = 0
            repeat {
                for _ in 0..<16 { precondition(publicKey.isValidSignature(signature, for: digest)) }
                count += 16
            } while clock.now - start < .milliseconds(Int(seconds * 1000 / Double(rounds)))
            let elapsed = clock.now - start
            let micros = Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12
            perRound.append(micros / Double(count))
        }
        return P256Speed(microseconds: perRound.sorted()[rounds / 2])
    }
}
