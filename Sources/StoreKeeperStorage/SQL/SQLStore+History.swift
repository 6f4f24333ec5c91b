public import Foundation
public import SubscriptionEngine

/// One superseded observation of a subscriber, appended to `evidence_history` when a write folds it out of the
/// subscriber's row (``SubscriptionEngine/fold(_:at:)``): the row stays the size of what still matters, the history
/// keeps everything for the answers about the past (metrics, timelines).
struct HistoryRow: Equatable {
    /// The subscriber (stored key) who owned the subscription when it was folded.
    var user: String
    /// The subscription (stored key: `project:original transaction id`).
    var original: String
    /// The SHA-256 of `json`: the same observation is appended once, however often it is folded again.
    var digest: String
    /// The observation, as an ``EvidenceSet`` holding only it.
    var json: String
}

/// The history: appending folded observations, and reading a subscriber's evidence whole.
extension SQLStore {
    /// The history rows of `save`'s folded observations, one per observation.
    func historyRows(_ save: EvidenceSave) throws -> [HistoryRow] {
        guard !save.folded.isEmpty else { return [] }
        let project = ProjectScope.id(ofKey: save.user)
        func row(_ original: String, _ single: EvidenceSet) throws -> HistoryRow {
            let json = try evidenceEncoder.encode(single)
            return HistoryRow(
                user: save.user, original: project + ":" + original, digest: HexDigest.sha256(json), json: json)
        }
        var rows: [HistoryRow] = []
        for transaction in save.folded.transactions {
            var single = EvidenceSet()
            single.insert(transaction)
            rows.append(try row(transaction.originalTransactionID, single))
        }
        for renewal in save.folded.renewals {
            var single = EvidenceSet()
            single.insert(renewal)
            rows.append(try row(renewal.originalTransactionID, single))
        }
        return rows.sorted { ($0.original, $0.digest) < ($1.original, $1.digest) }
    }

    /// The statement appending history rows from four arrays (PostgreSQL), skipping observations already there.
    static let historyInsertFromArrays =
        "INSERT INTO evidence_history (app_user_id, original_transaction_id, digest, evidence_json) SELECT * FROM unnest(?, ?, ?, ?) ON CONFLICT (digest) DO NOTHING"

    /// The binds of ``historyInsertFromArrays``.
    static func historyBinds(_ rows: [HistoryRow]) -> [SQLValue] {
        [.texts(rows.map(\.user)), .texts(rows.map(\.original)), .texts(rows.map(\.digest)), .texts(rows.map(\.json))]
    }

    /// Appends history rows in the write's transaction.
    static func insertHistory(_ tx: any SQLTransaction, _ rows: [HistoryRow]) async throws {
        guard !rows.isEmpty else { return }
        if tx.dialect == .postgres {
            try await tx.query(historyInsertFromArrays, historyBinds(rows))
            return
        }
        for row in rows {
            try await tx.query(
                "INSERT INTO evidence_history (app_user_id, original_transaction_id, digest, evidence_json) VALUES (?, ?, ?, ?) ON CONFLICT (digest) DO NOTHING",
                [.text(row.user), .text(row.original), .text(row.digest), .text(row.json)])
        }
    }

    /// Everything known about a subscriber: its row's evidence and its history (see ``Store/fullEvidence(_:)``).
    public func fullEvidence(_ snapshot: SubscriberSnapshot) async throws -> EvidenceSet {
        var evidence = try decodeEvidence(snapshot)
        let rows = try await database.read(
            "SELECT evidence_json FROM evidence_history WHERE app_user_id = ? ORDER BY id", [.text(snapshot.storageKey)]
        )
        for row in rows {
            evidence.formUnion(
                try Self.decodeStored(
                    EvidenceSet.self, row["evidence_json"], empty: "{}", what: "history of \(snapshot.storageKey)"))
        }
        return evidence
    }
}
