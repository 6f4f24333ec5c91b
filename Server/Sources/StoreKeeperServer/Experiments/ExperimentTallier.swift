import Foundation
import StoreKeeperAPI
import StoreKeeperStorage
import SubscriptionEngine
import SubscriptionMetrics

/// Keeps an experiment's results as a rollup (``ExperimentTally``) and brings it up to date when read: built once
/// from every enrolment (again when the proceeds rules or the reporting currency change), then moved on from the
/// project's event feed — every customer an event names since is counted again from their evidence. A read costs
/// what changed since the last one, never the number of enrolments.
struct ExperimentTallier: Sendable {
    let store: any EvidenceStore
    /// Where enrolments and tallies are kept.
    let experiments: any ExperimentStore
    let reporting: ReportingCurrency?
    let proceeds: ProceedsRules
    let now: @Sendable () -> Date

    /// Events read from the feed at once.
    static let feedPage = 2_000
    /// Enrolled keys counted per transaction while building.
    static let buildChunk = 500
    /// Customers' evidence read at once.
    static let concurrentReads = 8
    /// Times a read starts again after another writer moved the tally first.
    static let attempts = 5
    /// How long a build may go without a commit before another read takes it over (seconds, wall clock).
    static let stalledAfter: TimeInterval = 60
    /// How often a read waiting for another's build looks again.
    static let buildPoll = Duration.milliseconds(250)

    /// What a tally is counted with: another mark (other proceeds rules, another reporting currency or rates, a
    /// different conversion window) builds it again.
    var mark: String {
        let currency = reporting.map { reporting in
            reporting.code + " "
                + reporting.rates.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                .joined(separator: ",")
        }
        return MetricRollup.buildMark(proceeds) + " reporting=" + (currency ?? "none") + " window="
            + String(Int(ExperimentOutcome.conversionWindow))
    }

    /// How long a read waits for the feed's horizon to pass what was committed when it asked (a transaction still
    /// running below it holds the horizon back) before answering from where the horizon is.
    static let freshnessWait: TimeInterval = 5

    /// The experiment's tally, counting every event committed before this read began: the feed's horizon may lag
    /// behind a transaction still running, so the read catches up again until it passes what was committed when
    /// asked (at most ``freshnessWait``).
    func tally(_ experiment: String, project: ProjectScope) async throws -> ExperimentTally {
        let asked = try await store.eventFeedLatest(in: project)
        let deadline = Date().addingTimeInterval(Self.freshnessWait)
        while true {
            let current = try await caughtUp(experiment, project: project)
            let behind = asked.map { asked in
                current.cursor.map { ($0.transaction, $0.id) < (asked.transaction, asked.id) } ?? true
            }
            guard behind == true, Date() < deadline else { return current }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// The experiment's tally, current up to the feed's end. A build another request (or replica) is making is
    /// waited for while it moves; one that stopped moving for ``stalledAfter`` (its writer gone) is started again.
    func caughtUp(_ experiment: String, project: ProjectScope) async throws -> ExperimentTally {
        var attempts = 0
        while attempts < Self.attempts {
            var tally = try await experiments.experimentTally(projectID: project.id, experiment: experiment)
            if let stored = tally, stored.mark == mark, !stored.ready {
                if let moved = stored.updatedAt, Date().timeIntervalSince(moved) < Self.stalledAfter {
                    try await Task.sleep(for: Self.buildPoll)
                    continue
                }
            }
            if let stored = tally, stored.mark != mark || !stored.ready { tally = nil }
            attempts += 1
            if tally == nil { tally = try await build(experiment, project: project) }
            guard let start = tally, let current = try await catchUp(start, experiment, project: project) else {
                continue
            }
            return current
        }
        throw ServiceError(
            .conflict, .experimentState,
            "the results of \"\(experiment)\" were being counted by other requests at the same time; ask again")
    }

    /// Builds the tally from every enrolment; `nil` when another writer started a build meanwhile.
    func build(_ experiment: String, project: ProjectScope) async throws -> ExperimentTally? {
        // Events after the feed's end now are counted by the next catch-up; everything before is in the evidence
        // read below.
        let end = try await store.eventFeedEnd(in: project)
        var tally = try await experiments.resetExperimentTally(
            projectID: project.id, experiment: experiment, mark: mark, cursor: end)
        // One enrolment per key and experiment (the table's key).
        let keys = try await experiments.enrolments(projectID: project.id, experiment: experiment).map(\.appUserKey)
        var start = 0
        repeat {
            let chunk = Array(keys[start..<min(keys.count, start + Self.buildChunk)])
            start += chunk.count
            guard
                let next = try await experiments.commitExperimentRows(
                    try await rows(for: chunk, experiment, project: project), projectID: project.id,
                    experiment: experiment, expected: tally, cursor: end, ready: start >= keys.count)
            else { return nil }
            tally = next
        } while start < keys.count
        return tally
    }

    /// Moves `tally` to the feed's end, a page at a time; `nil` when another writer moved it first.
    func catchUp(_ tally: ExperimentTally, _ experiment: String, project: ProjectScope) async throws
        -> ExperimentTally?
    {
        var tally = tally
        while true {
            let (events, next) = try await store.eventFeed(in: project, after: tally.cursor, limit: Self.feedPage)
            guard !events.isEmpty else { return tally }
            let keys = Array(Set(events.map { project.key($0.appUserID) }))
            guard
                let moved = try await experiments.commitExperimentRows(
                    try await rows(for: keys, experiment, project: project), projectID: project.id,
                    experiment: experiment, expected: tally, cursor: next, ready: true)
            else { return nil }
            tally = moved
            if events.count < Self.feedPage { return tally }
        }
    }

    /// The rows of every enrolment of the customers `keys` name: each customer's earliest enrolment (their ids
    /// merged) counted with what they did since, from their evidence now; their other enrolments kept uncounted.
    func rows(for keys: [String], _ experiment: String, project: ProjectScope) async throws
        -> [ExperimentOutcomeRow]
    {
        guard !keys.isEmpty else { return [] }
        let groups = try await experiments.keyGroups(keys)
        var enrolments: [String: EnrolmentRecord] = [:]
        let named = groups.flatMap(\.keys)
        for start in stride(from: 0, to: named.count, by: Self.buildChunk) {
            let chunk = Array(named[start..<min(named.count, start + Self.buildChunk)])
            for enrolment in try await experiments.enrolments(
                projectID: project.id, experiment: experiment, appUserKeys: chunk)
            {
                enrolments[enrolment.appUserKey] = enrolment
            }
        }
        let enrolled = groups.filter { $0.keys.contains { enrolments[$0] != nil } }
        let evidence = try await evidence(of: enrolled.filter(\.stored).map(\.account), project: project)
        let instant = now()
        var rows: [ExperimentOutcomeRow] = []
        for group in enrolled {
            let theirs = group.keys.compactMap { enrolments[$0] }.sorted { $0.isBefore($1) }
            guard let first = theirs.first else { continue }
            let outcome = evidence[group.account].map {
                ExperimentOutcome.of(
                    SubscriptionTimeline.timelines($0), enrolledAt: first.enrolledAt, now: instant,
                    reporting: reporting, rules: proceeds)
            }
            rows.append(Self.row(first, outcome))
            for other in theirs.dropFirst() {
                rows.append(
                    ExperimentOutcomeRow(
                        appUserKey: other.appUserKey, variant: other.variant, counted: false,
                        evidenced: outcome != nil))
            }
        }
        return rows
    }

    /// The counted row of `enrolment`: its outcome, or counted apart without evidence (`nil`).
    static func row(_ enrolment: EnrolmentRecord, _ outcome: ExperimentOutcome?) -> ExperimentOutcomeRow {
        guard let outcome else {
            return ExperimentOutcomeRow(
                appUserKey: enrolment.appUserKey, variant: enrolment.variant, counted: true, evidenced: false)
        }
        return ExperimentOutcomeRow(
            appUserKey: enrolment.appUserKey, variant: enrolment.variant, counted: true, evidenced: true,
            startedTrial: outcome.startedTrial, converted: outcome.converted,
            revenueMicros: micros(outcome.revenue), proceedsMicros: micros(outcome.proceeds),
            refunds: Int64(outcome.refunds))
    }

    /// An amount in whole millionths.
    static func micros(_ amount: Double) -> Int64 { Int64((amount * 1_000_000).rounded()) }

    /// The evidence of each of `accounts` (stored keys), a few reads at once.
    func evidence(of accounts: [String], project: ProjectScope) async throws -> [String: EvidenceSet] {
        let store = store
        return try await withThrowingTaskGroup(of: (String, EvidenceSet?).self) { group in
            var found: [String: EvidenceSet] = [:]
            for (index, account) in accounts.enumerated() {
                if index >= Self.concurrentReads, let (done, evidence) = try await group.next() {
                    found[done] = evidence
                }
                group.addTask {
                    (account, try await store.subscriber(ProjectScope.value(ofKey: account), in: project)?.evidence)
                }
            }
            for try await (done, evidence) in group { found[done] = evidence }
            return found
        }
    }
}
