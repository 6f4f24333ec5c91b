/// A contribution's fingerprint: one number kept per customer in place of its contribution, changed by each write's
/// difference, so a check can name the customer whose rollups drifted without every customer's rows being stored.
extension MetricRollup {
    /// The sum over `contribution`'s keys of value × the key's hash (FNV-1a of its fields, the same on every
    /// machine), wrapping: additive, so a customer's fingerprint plus its difference's is its new contribution's.
    public static func fingerprint(_ contribution: [RollupKey: Int64]) -> Int64 {
        var total: UInt64 = 0
        for (key, value) in contribution { total &+= UInt64(bitPattern: value) &* hash(key) }
        return Int64(bitPattern: total)
    }

    /// FNV-1a over a key's fields, each followed by a zero byte.
    static func hash(_ key: RollupKey) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func add(_ field: String) {
            for byte in field.utf8 {
                hash ^= UInt64(byte)
                hash &*= 0x0000_0100_0000_01B3
            }
            // The zero byte ending each field.
            hash &*= 0x0000_0100_0000_01B3
        }
        add(key.metric.rawValue)
        add(String(key.day))
        add(key.product)
        add(key.storefront)
        add(key.environment)
        add(key.offerType)
        add(key.series)
        add(String(key.column.rawValue))
        return hash
    }
}
