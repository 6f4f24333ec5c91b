/// Computations of one query over parts of a project, added together.
extension MetricAccumulator {
    /// Adds what another computation of the same query counted (customers split between computations, e.g. one
    /// per core): the result is the same as one computation over all of them.
    /// - Parameter other: A computation of the same query.
    public mutating func merge(_ other: MetricAccumulator) {
        precondition(other.query == query, "merging computations of different queries")
        for (key, values) in other.sums { Self.add(values, into: &sums, key) }
        for (key, values) in other.denominators { Self.add(values, into: &denominators, key) }
        for (key, values) in other.deltas { Self.add(values, into: &deltas, key) }
        for (key, values) in other.denominatorDeltas { Self.add(values, into: &denominatorDeltas, key) }
    }

    static func add(_ values: [Double], into table: inout [String: [Double]], _ key: String) {
        guard var existing = table[key] else {
            table[key] = values
            return
        }
        for index in existing.indices { existing[index] += values[index] }
        table[key] = existing
    }
}
