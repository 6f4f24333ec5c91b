public import Foundation
public import SubscriptionEngine

/// One superseded observation of a subscriber, appended to `evidence_history` when a write folds it out of the
/// subscriber's row (``SubscriptionEngine/fold(_:at:)``): the row stays the size of what still matters, the history
/// keeps everything for the answers about the past (metrics, timelines).
struct HistoryRow: Equatable {
    /// The subscriber (stored key) who owns the observation's subscription.
    var user: String
    /// The first 128 bits of the SHA-256 of `json` (hex), the row's key: the same observation is appended once,
    /// however often it is folded again (a receipt lists every past period each time it is posted).
    var digest: String
    /// The observation, as an ``EvidenceSet`` holding only it.
    var json: String
}

/// The history: appending folded observations, and reading a subscriber's evidence whole.
extension SQLStore {
    /// The history rows of `save`'s folded observations, one per observation.
    func historyRows(_ save: EvidenceSave) throws -> [HistoryRow] {
        guard !save.folded.isEmpty else { return [] }
        func row(_ single: EvidenceSet) throws -> HistoryRow {
            let json = try evidenceEncoder.encode(single)
            return HistoryRow(user: save.user, digest: String(HexDigest.sha256(json).prefix(32)), json: json)
        }
        var rows: [HistoryRow] = []
        for transaction in save.folded.transactions {
            var single = EvidenceSet()
            single.insert(transaction)
            rows.append(try row(single))
        }
        for renewal in save.folded.renewals {
            var single = EvidenceSet()
            single.insert(renewal)
            rows.append(try row(single))
        }
        return rows.sorted { $0.digest < $1.digest }
    }

    /// The statement appending history rows from three arrays (PostgreSQL), skipping observations already there.
    static let historyInsertFromArrays =
        "INSERT INTO evidence_history (digest, app_user_id, evidence_json) SELECT * FROM unnest(?, ?, ?) ON CONFLICT (digest) DO NOTHING"

    /// The binds of ``historyInsertFromArrays``.
    static func historyBinds(_ rows: [HistoryRow]) -> [SQLValue] {
        [.texts(rows.map(\.digest)), .texts(rows.map(\.user)), .texts(rows.map(\.json))]
    }

    /// Appends history rows in the write's transaction.
    static func insertHistory(_ tx: any SQLTransaction, _ rows: [HistoryRow]) async throws {
        let batch = SQLRowSet(
            "h", columns: ["digest", "user_id", "json"],
            rows: rows.map { [.text($0.digest), .text($0.user), .text($0.json)] })
        try await tx.dialect.run(
            [
                SQLBatchStatement(
                    over: batch,
                    "INSERT INTO evidence_history (digest, app_user_id, evidence_json) SELECT digest, user_id, json FROM h WHERE true ON CONFLICT (digest) DO NOTHING"
                )
            ], in: tx)
    }

    /// Everything known about a subscriber: its row's evidence and its history (see ``Store/fullEvidence(_:)``).
    public func fullEvidence(_ snapshot: SubscriberSnapshot) async throws -> EvidenceSet {
        var evidence = try decodeEvidence(snapshot)
        let rows = try await database.read(
            "SELECT evidence_json FROM evidence_history WHERE app_user_id = ?", [.text(snapshot.storageKey)]
        )
        for row in rows {
            evidence.formUnion(
                try Self.decodeStored(
                    EvidenceSet.self, row["evidence_json"], empty: "{}", what: "history of \(snapshot.storageKey)"))
        }
        return evidence
    }

    /// Moves the history of subscription `original` (its stored key) from `previous` to `owner`: the rows of the
    /// previous owner's history whose observation names it (a transfer, which is rare, so the rows are found by
    /// their JSON rather than through an index every notification would pay for).
    static func moveHistory(_ tx: any SQLTransaction, of original: String, from previous: String, to owner: String)
        async throws
    {
        let id = ProjectScope.value(ofKey: original)
        let escaped = id.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
        try await tx.query(
            "UPDATE evidence_history SET app_user_id = ? WHERE app_user_id = ? AND evidence_json LIKE ? ESCAPE '\\'",
            [.text(owner), .text(previous), .text("%\"originalTransactionID\":\"\(escaped)\"%")])
    }
}
