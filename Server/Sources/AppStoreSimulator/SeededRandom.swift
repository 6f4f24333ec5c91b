/// SplitMix64: the simulator's only source of randomness, so a seed reproduces a run (also what other seeded
/// generators of test populations use: `storekeeper-lab metrics-bench`).
public struct SeededRandom: RandomNumberGenerator, Sendable, Codable {
    private var state: UInt64

    /// A generator whose numbers are fixed by `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 seeded bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A UUID string made from 128 seeded bits (version 4 layout).
    mutating func uuid() -> String {
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &self) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
            .joined()
        let characters = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
    }
}
