/// A cache bounded by a byte budget that forgets the least recently used entries first, one at a time — never
/// everything at once. Each entry is stored with its cost (its approximate size in bytes); every operation is
/// O(1). A value type: its owner guards it (a `Mutex`).
public struct LRUCache<Key: Hashable, Value> {
    /// How the cache has been used, for `/metrics`.
    public struct Statistics: Sendable, Hashable {
        /// Lookups that found their entry.
        public var hits = 0
        /// Lookups that did not.
        public var misses = 0
        /// Entries forgotten to stay within the budget.
        public var evictions = 0
    }

    struct Node {
        var key: Key
        var value: Value
        var cost: Int
        var newer: Int?
        var older: Int?
    }

    /// The most bytes the entries may cost together.
    public let budget: Int
    /// What the entries cost now.
    public private(set) var bytes = 0
    /// Hits, misses and evictions so far.
    public private(set) var statistics = Statistics()
    private var nodes: [Node?] = []
    private var free: [Int] = []
    private var index: [Key: Int] = [:]
    private var newest: Int?
    private var oldest: Int?

    /// An empty cache.
    /// - Parameter budget: The most bytes its entries may cost together.
    public init(budget: Int) { self.budget = max(0, budget) }

    /// How many entries it holds.
    public var count: Int { index.count }

    /// Its size and use so far.
    public var usage: CacheUsage {
        CacheUsage(
            bytes: bytes, budget: budget, entries: count, hits: statistics.hits, misses: statistics.misses,
            evictions: statistics.evictions)
    }

    /// The value for `key`, which becomes the most recently used (counted as a hit or a miss).
    public mutating func value(for key: Key) -> Value? {
        guard let slot = index[key], let node = nodes[slot] else {
            statistics.misses += 1
            return nil
        }
        statistics.hits += 1
        moveToFront(slot)
        return node.value
    }

    /// Stores `value` for `key` at `cost` bytes as the most recently used entry, then forgets the least recently
    /// used ones until the cache is within its budget. An entry that costs more than the whole budget is not kept.
    public mutating func set(_ value: Value, for key: Key, cost: Int) {
        remove(key)
        let cost = max(1, cost)
        guard cost <= budget else { return }
        let node = Node(key: key, value: value, cost: cost, newer: nil, older: newest)
        let slot: Int
        if let reused = free.popLast() {
            nodes[reused] = node
            slot = reused
        } else {
            nodes.append(node)
            slot = nodes.count - 1
        }
        if let newest { nodes[newest]?.newer = slot }
        newest = slot
        if oldest == nil { oldest = slot }
        index[key] = slot
        bytes += cost
        while bytes > budget, let victim = oldest, victim != slot {
            remove(at: victim)
            statistics.evictions += 1
        }
    }

    /// Changes the value for `key` in place, keeping its cost and its place in the order (no lookup is counted).
    public mutating func update(_ key: Key, _ change: (inout Value) -> Void) {
        guard let slot = index[key], nodes[slot] != nil else { return }
        change(&nodes[slot]!.value)
    }

    /// Forgets the entry for `key`, if any.
    public mutating func remove(_ key: Key) {
        if let slot = index[key] { remove(at: slot) }
    }

    private mutating func remove(at slot: Int) {
        guard let node = nodes[slot] else { return }
        if let newer = node.newer { nodes[newer]?.older = node.older } else { newest = node.older }
        if let older = node.older { nodes[older]?.newer = node.newer } else { oldest = node.newer }
        nodes[slot] = nil
        free.append(slot)
        index[node.key] = nil
        bytes -= node.cost
    }

    private mutating func moveToFront(_ slot: Int) {
        guard newest != slot, let node = nodes[slot] else { return }
        if let newer = node.newer { nodes[newer]?.older = node.older }
        if let older = node.older { nodes[older]?.newer = node.newer } else { oldest = node.newer }
        nodes[slot]?.older = newest
        nodes[slot]?.newer = nil
        if let newest { nodes[newest]?.newer = slot }
        newest = slot
    }
}

extension LRUCache: Sendable where Key: Sendable, Value: Sendable {}
extension LRUCache.Node: Sendable where Key: Sendable, Value: Sendable {}
