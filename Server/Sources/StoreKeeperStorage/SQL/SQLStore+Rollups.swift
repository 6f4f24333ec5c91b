public import Foundation
public import SubscriptionEngine
public import SubscriptionMetrics

/// One subscriber a write changes, as metric rollups see it.
struct RollupChange {
    /// The subscriber (stored key).
    var user: String
    /// The row's evidence before the write (empty for a new row); `nil` when the write also moves history (a
    /// transfer, an alias merge): then the change is counted from the whole history, before and after.
    var before: EvidenceSet?
    /// The row's evidence after the write; `nil` for a row deleted.
    var after: EvidenceSet?
    /// What the write folds out of the row into the history.
    var folded = EvidenceSet()
}

/// A change ``SQLStore/windowed(_:stored:)`` found runs stand in for: what counting it needs (with the store's
/// proceeds rules, which ``RollupPreparation`` holds once).
struct WindowedChange {
    /// The subscriber (stored key).
    var user: String
    /// The timelines before the write, the runs applied.
    var old: [SubscriptionTimeline]
    /// The timelines after the write, the runs applied.
    var new: [SubscriptionTimeline]
    /// Where the change starts.
    var start: RollupChangeStart
    /// The customer's stored row.
    var stored: RollupCustomer?
    /// Its runs after the write.
    var folded: FoldedPeriods

    /// The change's difference and the customer's new row (`nil`: none).
    func counted(_ rules: ProceedsRules) -> (difference: [RollupKey: Int64], customer: RollupCustomer?) {
        let difference = MetricRollup.change(from: old, to: new, proceeds: rules, start: start)
        guard !new.isEmpty || !folded.isEmpty else { return (difference, nil) }
        let fingerprint = (stored?.fingerprint ?? 0) &+ MetricRollup.fingerprint(difference)
        return (difference, RollupCustomer(fingerprint: fingerprint, folded: folded))
    }
}

/// A write's rollups between its two halves (``SQLStore/prepareRollups(_:_:)``, ``SQLStore/finishRollups(_:_:)``).
struct RollupPreparation {
    /// The differences counted so far, by project and row.
    var totals: [ProjectRollupKey: Int64] = [:]
    /// How proceeds are estimated (the store's rules, for every change the write counts).
    var rules: ProceedsRules
    /// Each counted customer's new row (`nil`: none).
    var customers: [(user: String, customer: RollupCustomer?)] = []
    /// The subscribers counted from their whole history after the write's statements, with their evidence after.
    var whole: [(user: String, after: EvidenceSet?)] = []
    /// Their contributions before the write (what the rollups hold of them).
    var old: [String: [RollupKey: Int64]] = [:]
    /// The changes runs stand in for, not counted yet (``count()``): pure work, which a caller may do while the
    /// write's statements run.
    var pending: [WindowedChange] = []

    /// Counts the ``pending`` changes.
    mutating func count() {
        for change in pending {
            let (difference, customer) = change.counted(rules)
            add(difference, of: change.user)
            if customer != change.stored { customers.append((change.user, customer)) }
        }
        pending = []
    }

    mutating func add(_ difference: [RollupKey: Int64], of user: String) {
        let project = ProjectScope.id(ofKey: user)
        for (key, value) in difference { totals[ProjectRollupKey(project: project, key: key), default: 0] += value }
    }
}

/// Metric rollups (``MetricRollup``), changed by every write that changes a subscriber, in that write's
/// transaction. A write counts its change from its window on (``MetricRollup/firstChange(from:to:)``), the
/// customer's folded history standing in as runs (``FoldedPeriods``): nothing it reads or computes grows with the
/// history. Where runs cannot stand in (a window reaching folded days, a transfer, an alias merge, a row repeating
/// folded history), the customer is counted from its whole history before and after.
extension SQLStore {
    /// The first half, before the write's statements: reads the changed customers' rows, finds every change runs
    /// can stand in for (left ``RollupPreparation/pending``, counted by ``RollupPreparation/count()`` or at the
    /// latest by ``finishRollups(_:_:)``), and counts the old contribution of the others from their evidence as it
    /// still is. `nil` without ``rollupRules``.
    /// - Parameter stored: The changed customers' rows when the caller read them under their locks already.
    func prepareRollups(
        _ tx: any SQLTransaction, stored read: [String: RollupCustomer]? = nil, _ changes: [RollupChange]
    ) async throws -> RollupPreparation? {
        guard let rules = rollupRules, !changes.isEmpty else { return nil }
        var latest: [String: RollupChange] = [:]
        for change in changes {
            guard var merged = latest[change.user] else {
                latest[change.user] = change
                continue
            }
            merged.after = change.after
            merged.folded.formUnion(change.folded)
            if change.before == nil { merged.before = nil }
            latest[change.user] = merged
        }
        let users = latest.keys.sorted()
        let stored: [String: RollupCustomer]
        if let read { stored = read } else { stored = try await Self.rollupCustomers(tx, users) }
        var preparation = RollupPreparation(rules: rules)
        var counted: [String] = []
        for user in users {
            guard let change = latest[user] else { continue }
            if let windowed = Self.windowed(change, stored: stored[user]) {
                preparation.pending.append(windowed)
                continue
            }
            preparation.whole.append((user, change.after))
            if stored[user] != nil { counted.append(user) }
        }
        guard !counted.isEmpty else { return preparation }
        let history = try await Self.histories(tx, counted)
        let cache = evidenceCache
        for user in counted {
            var evidence = latest[user]?.before ?? EvidenceSet()
            if latest[user]?.before == nil, let row = try await Self.loadEvidence(tx, user, cache) {
                evidence = row.evidence
            }
            for past in history[user] ?? [] { evidence.formUnion(past) }
            preparation.old[user] = MetricRollup.contribution(SubscriptionTimeline.timelines(evidence), proceeds: rules)
        }
        return preparation
    }

    /// The second half, after the write's statements: counts what is pending and the whole-history customers from
    /// their evidence now, stores every counted customer's row and adds the differences to the project's rows, in
    /// key order.
    func finishRollups(_ tx: any SQLTransaction, _ preparation: RollupPreparation?) async throws {
        guard var preparation else { return }
        let rules = preparation.rules
        preparation.count()
        let history = try await Self.histories(tx, preparation.whole.filter { $0.after != nil }.map(\.user))
        for (user, after) in preparation.whole {
            var contribution: [RollupKey: Int64] = [:]
            var customer: RollupCustomer?
            if let after {
                var evidence = after
                var folded = EvidenceSet()
                for past in history[user] ?? [] { folded.formUnion(past) }
                evidence.formUnion(folded)
                let timelines = SubscriptionTimeline.timelines(evidence)
                contribution = MetricRollup.contribution(timelines, proceeds: rules)
                let runs = FoldedPeriods(history: folded, row: after)
                if !timelines.isEmpty || !runs.isEmpty {
                    customer = RollupCustomer(fingerprint: MetricRollup.fingerprint(contribution), folded: runs)
                }
            }
            preparation.add(MetricRollup.difference(from: preparation.old[user] ?? [:], to: contribution), of: user)
            preparation.customers.append((user, customer))
        }
        let rows = preparation.totals.filter { $0.value != 0 }.sorted { $0.key < $1.key }
        let (written, deleted) = try Self.rollupCustomerRows(preparation.customers)
        // One statement where the database allows (a round trip each would bound how many writes a second commit).
        try await tx.dialect.run([Self.rollupCustomerStatement(written), Self.rollupStatement(rows)], in: tx)
        try await tx.dialect.delete(from: "metric_customers", where: "app_user_id", in: deleted, tx: tx)
    }

    /// A change to count from its window with the stored runs standing in for the folded history; `nil` when runs
    /// cannot stand in.
    static func windowed(_ change: RollupChange, stored: RollupCustomer?) -> WindowedChange? {
        guard let before = change.before, let after = change.after else { return nil }
        // A customer never counted contributes nothing yet: only a new one (nothing in its row, so no history)
        // is counted here.
        let runs = stored?.folded ?? FoldedPeriods()
        guard stored != nil || (before.transactions.isEmpty && before.renewals.isEmpty) else { return nil }
        // What the write folds, less what the runs already hold (a receipt repeats the folded history).
        var arriving = EvidenceSet()
        for transaction in change.folded.transactions
        where !runs.holds(transaction.originalTransactionID, start: transaction.purchaseDate ?? .distantPast) {
            arriving.insert(transaction)
        }
        for renewal in change.folded.renewals { arriving.insert(renewal) }
        var now = after
        now.formUnion(arriving)
        guard let old = runs.applied(to: SubscriptionTimeline.timelines(before)),
            let new = runs.applied(to: SubscriptionTimeline.timelines(now))
        else { return nil }
        let start = MetricRollup.firstChange(from: old, to: new)
        switch start {
        case .nothing: break
        case .everything: guard runs.isEmpty else { return nil }
        case .day(let day, _):
            if let end = runs.latestEnd, MetricRollup.day(of: end) >= day { return nil }
        }
        var folded = runs
        folded.add(arriving)
        return WindowedChange(
            user: change.user, old: old, new: new, start: start, stored: stored, folded: folded)
    }

    /// The history of each of `users`, one set per stored observation.
    static func histories(_ tx: any SQLTransaction, _ users: [String]) async throws -> [String: [EvidenceSet]] {
        var result: [String: [EvidenceSet]] = [:]
        for row in try await selectIn(tx, "SELECT app_user_id, evidence_json FROM evidence_history", users) {
            guard let user = row["app_user_id"]?.string else { continue }
            result[user, default: []].append(
                try decodeStored(EvidenceSet.self, row["evidence_json"], empty: "{}", what: "history of \(user)"))
        }
        return result
    }

    /// The stored row of each of `users` that rollups count.
    static func rollupCustomers(_ tx: any SQLTransaction, _ users: [String]) async throws -> [String: RollupCustomer] {
        var result: [String: RollupCustomer] = [:]
        let select = "SELECT app_user_id, \(countedColumn) AS counted FROM metric_customers"
        for row in try await selectIn(tx, select, users) {
            guard let user = row["app_user_id"]?.string, let value = row["counted"]?.string else { continue }
            result[user] = try countedCustomer(value, of: user)
        }
        return result
    }

    /// A `metric_customers` row as one text, its fingerprint, a space and its runs: how every read of the table
    /// takes a row (the group's claim reads it beside other rows' texts), decoded by ``countedCustomer(_:of:)``.
    static let countedColumn = "CAST(fingerprint AS TEXT) || ' ' || folded"

    /// A `metric_customers` row read as ``countedColumn``.
    /// - Throws: ``StorageError`` naming the subscriber when the row is not ours.
    static func countedCustomer(_ value: String, of user: String) throws -> RollupCustomer {
        guard let space = value.firstIndex(of: " "), let fingerprint = Int64(value[..<space]) else {
            throw StorageError("the metric_customers row of \(user) reads \(value.prefix(40))")
        }
        return RollupCustomer(
            fingerprint: fingerprint,
            folded: try RollupCustomerCoding.decode(String(value[value.index(after: space)...]), of: user))
    }

    /// `select` with `WHERE app_user_id` in `users`.
    static func selectIn(_ tx: any SQLTransaction, _ select: String, _ users: [String]) async throws -> [SQLRow] {
        try await tx.dialect.select(select, where: "app_user_id", in: users, tx: tx)
    }

    /// A customer's stored row: its id, its contribution's fingerprint and its runs encoded.
    typealias RollupCustomerRow = (user: String, fingerprint: Int64, folded: String)

    /// The rows to store of `customers`, and the ids of those to delete (`nil`: none).
    static func rollupCustomerRows(_ customers: [(user: String, customer: RollupCustomer?)]) throws -> (
        written: [RollupCustomerRow], deleted: [String]
    ) {
        var written: [RollupCustomerRow] = []
        for (user, customer) in customers {
            guard let customer else { continue }
            written.append((user, customer.fingerprint, try RollupCustomerCoding.encode(customer.folded)))
        }
        return (written, customers.filter { $0.customer == nil }.map(\.user))
    }

    static let rollupCustomerConflict =
        " ON CONFLICT (app_user_id) DO UPDATE SET fingerprint = excluded.fingerprint, folded = excluded.folded"

    /// The statement storing customers' rows (``rollupCustomerRows(_:)``).
    static func rollupCustomerStatement(_ written: [RollupCustomerRow]) -> SQLBatchStatement {
        let batch = SQLRowSet(
            "c", columns: ["app_user_id", "fingerprint", "folded"],
            rows: written.map { [.text($0.user), .integer($0.fingerprint), .text($0.folded)] })
        return SQLBatchStatement(
            over: batch,
            "INSERT INTO metric_customers (app_user_id, fingerprint, folded) SELECT app_user_id, fingerprint, folded FROM c WHERE true"
                + rollupCustomerConflict)
    }
}
