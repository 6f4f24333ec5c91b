public import AppStoreSimulator

/// A deterministic random number generator, so property and fuzz tests reproduce from a seed: the simulator's
/// SplitMix64 (``SeededRandom``), the one seeded generator in the project.
public typealias SeededGenerator = SeededRandom

/// Random damage to bytes: bit flips, overwrites, deletions, duplications, insertions and truncation.
public enum ByteMutator {
    /// Applies one to four random mutations.
    /// - Parameters:
    ///   - bytes: The original.
    ///   - generator: The random source.
    /// - Returns: A damaged copy (possibly empty).
    public static func mutate(_ bytes: [UInt8], using generator: inout SeededGenerator) -> [UInt8] {
        var copy = bytes
        for _ in 0..<Int.random(in: 1...4, using: &generator) where !copy.isEmpty {
            let index = Int.random(in: 0..<copy.count, using: &generator)
            switch Int.random(in: 0..<6, using: &generator) {
            case 0: copy[index] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &generator)
            case 1: copy[index] = UInt8.random(in: 0...255, using: &generator)
            case 2: copy.removeSubrange(index..<min(copy.count, index + Int.random(in: 1...64, using: &generator)))
            case 3:
                let end = min(copy.count, index + Int.random(in: 1...64, using: &generator))
                copy.insert(contentsOf: copy[index..<end], at: index)
            case 4:
                copy.insert(
                    contentsOf: (0..<Int.random(in: 1...8, using: &generator)).map { _ in
                        UInt8.random(in: 0...255, using: &generator)
                    }, at: index)
            default: copy.removeSubrange(index...)
            }
        }
        return copy
    }
}
