import Logging
import ServiceLifecycle
import StoreKeeperStorage

/// Checks a random sample of each project's customers against their evidence every `interval`
/// (``RollupStore/auditRollups(in:after:limit:)``), and the project's summed rows against all its customers
/// (``RollupStore/auditRollupRows(in:)``), so rollups that drifted from the evidence — a bug, a database edited by
/// hand — are found without anyone running `storekeeper metrics verify`. Changes nothing: a difference is counted
/// (`storekeeper_rollup_audit_customers_total{result="differ"}`, `storekeeper_rollup_audit_rows_total`) and logged
/// as an error naming the project (and the customers) and the repair (`storekeeper metrics rebuild`).
struct RollupAuditor: Service {
    let store: any RollupStore
    let projects: [ProjectScope]
    let interval: Duration
    let sample: Int
    let logger: Logger

    /// An auditor; `interval` defaults to six hours, `sample` customers per project and round.
    init(
        store: any RollupStore, projects: [ProjectScope], interval: Duration = .seconds(6 * 3_600), sample: Int = 200,
        logger: Logger
    ) {
        self.store = store
        self.projects = projects
        self.interval = interval
        self.sample = max(1, sample)
        self.logger = logger
    }

    /// Runs until graceful shutdown; nothing without rollups. The first round waits (at most fifteen minutes), so a
    /// starting server builds and answers first.
    func run() async throws {
        guard store.keepsRollups, !projects.isEmpty else { return }
        let loop = WorkLoop(
            interval: interval, logger: logger, failure: "auditing metric rollups failed", firstRound: .seconds(900))
        await loop.run {
            for project in projects { try await audit(project) }
            return false
        }
    }

    /// One project's sample, after a customer drawn at random, and its summed rows against all its customers; a
    /// project whose rollups are still being built is left for the next round.
    func audit(_ project: ProjectScope) async throws {
        guard try await store.rollupsReady(in: project) else { return }
        let rows = try await store.auditRollupRows(in: project)
        ServerMetrics.rollupRowsAudit(agree: rows.agree)
        if !rows.agree {
            logger.error(
                "metric rollup rows differ from what their customers contributed: run `storekeeper metrics rebuild`",
                metadata: ["project": "\(project.id)", "counted": "\(rows.customers)", "rows": "\(rows.rows)"])
        }
        let found = try await store.auditRollups(in: project, after: nil, limit: sample)
        ServerMetrics.rollupAudit(matched: found.checked - found.differing.count, differing: found.differing.count)
        guard !found.differing.isEmpty else { return }
        logger.error(
            "metric rollups differ from the evidence: run `storekeeper metrics rebuild`",
            metadata: [
                "project": "\(project.id)", "checked": "\(found.checked)", "differing": "\(found.differing.count)",
                "customers": "\(found.differing.prefix(5).joined(separator: ","))",
            ])
    }
}
