/// One cache's size and use: what `/metrics` will report for it.
public struct CacheUsage: Sendable, Hashable {
    /// What its entries cost now, in bytes.
    public var bytes: Int
    /// The most they may cost.
    public var budget: Int
    /// How many entries it holds.
    public var entries: Int
    /// Lookups that found their entry.
    public var hits: Int
    /// Lookups that did not.
    public var misses: Int
    /// Entries forgotten to stay within the budget.
    public var evictions: Int

    /// Makes a report.
    public init(bytes: Int, budget: Int, entries: Int, hits: Int, misses: Int, evictions: Int) {
        self.bytes = bytes
        self.budget = budget
        self.entries = entries
        self.hits = hits
        self.misses = misses
        self.evictions = evictions
    }
}
