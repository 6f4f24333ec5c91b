public import Foundation
public import SubscriptionMetrics

/// Where metric queries read rollups (``MetricRollup``): whether a project's are whole, its rows for a query, and
/// building them.
public protocol RollupStore: Sendable {
    /// Whether this store keeps rollups with every write.
    var keepsRollups: Bool { get }

    /// Whether `project`'s rollups are whole: built (``rebuildRollups(in:progress:)``) with the rules writes keep
    /// them with now.
    func rollupsReady(in project: ProjectScope) async throws -> Bool

    /// The rows a query of `metric` reads, summed over the dimensions it does not split by: every row of the days
    /// `fromDay...throughDay`, and the snapshot changes before `fromDay` summed as one day (`fromDay - 1`).
    /// - Parameters:
    ///   - project: The project.
    ///   - metric: The metric whose rows are read (``MetricRollup/source(of:)``).
    ///   - split: The dimension kept apart, if any.
    ///   - environments: The environments counted.
    ///   - fromDay: The first day of the query's first bucket.
    ///   - throughDay: The query's clock's day.
    func rollupRows(
        in project: ProjectScope, metric: MetricName, split: MetricSplit?, environments: Set<String>, fromDay: Int,
        throughDay: Int
    ) async throws -> [(key: RollupKey, value: Int64)]

    /// Forgets a project's rollups and builds them again from the stored evidence, then marks them whole.
    /// - Returns: How many subscribers were counted.
    @discardableResult
    func rebuildRollups(in project: ProjectScope, progress: (Int) -> Void) async throws -> Int

    /// Deletes up to `limit` rollup rows that hold 0 (they answer as no row), never waiting for a write.
    /// - Returns: How many were deleted (`limit` when more may be waiting).
    func sweepRollups(limit: Int) async throws -> Int

    /// Checks up to `limit` customers of `project`, those after app user id `after` in key order (then from the
    /// first; `nil`: after one drawn at random), against their evidence; changes nothing.
    /// - Returns: How many were checked and which differ.
    func auditRollups(in project: ProjectScope, after: String?, limit: Int) async throws -> RollupAudit

    /// Checks `project`'s summed rollup rows against its customers' counted fingerprints, in one snapshot; changes
    /// nothing.
    /// - Returns: How many customers and rows were read, and whether they agree.
    func auditRollupRows(in project: ProjectScope) async throws -> RollupRowsAudit
}
