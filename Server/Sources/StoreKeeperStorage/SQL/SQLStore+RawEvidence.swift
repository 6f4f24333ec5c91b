public import Foundation

/// Raw evidence as stored: compacted (its repeated certificate chains kept once in `evidence_parts`, see
/// ``RawEvidenceCodec``) when that rebuilds it exactly, otherwise as it came.
struct StoredRaw: Equatable {
    /// The `evidence.body` column.
    var body: String
    /// The `evidence.form` column: `compact`, or `nil` for the raw text.
    var form: String?
    /// The parts the body refers to, by SHA-256.
    var parts: [String: String]

    /// How `raw` is stored.
    init(_ raw: String) {
        if let compacted = RawEvidenceCodec.compact(raw) {
            self.init(body: compacted.body, form: Self.compact, parts: compacted.parts)
        } else {
            self.init(body: raw, form: nil, parts: [:])
        }
    }

    init(body: String, form: String?, parts: [String: String]) {
        self.body = body
        self.form = form
        self.parts = parts
    }

    /// The `form` of a compacted body.
    static let compact = "compact"
    /// The `form` of a row whose raw text the retention setting dropped (its body is empty).
    static let purged = "purged"
}

/// Reading raw evidence back, byte for byte.
extension SQLStore {
    /// The statement storing one part (SQLite, one row a statement).
    static let partInsert = "INSERT INTO evidence_parts (digest, body) VALUES (?, ?) ON CONFLICT (digest) DO NOTHING"

    /// Stores the parts a compacted body refers to (SQLite).
    static func insertParts(_ tx: any SQLTransaction, _ parts: [String: String]) async throws {
        for (digest, body) in parts.sorted(by: { $0.key < $1.key }) {
            try await tx.query(partInsert, [.text(digest), .text(body)])
        }
    }

    /// The raw text of a stored body.
    /// - Throws: ``StorageError`` when a compacted body cannot be rebuilt (a part missing, a malformed body).
    static func rawText(_ tx: any SQLTransaction, body: String, form: String?, id: Int64) async throws -> String {
        guard form == StoredRaw.compact else { return body }
        let digests = RawEvidenceCodec.references(body).sorted()
        var parts: [String: String] = [:]
        for digest in digests {
            if let row = try await tx.query("SELECT body FROM evidence_parts WHERE digest = ?", [.text(digest)]).first {
                parts[digest] = row["body"]?.string
            }
        }
        do {
            return try RawEvidenceCodec.expand(body) { parts[$0] }
        } catch {
            throw StorageError("stored evidence \(id) cannot be rebuilt: \(error)")
        }
    }

    /// Drops the raw text of old evidence (see ``Store/purgeRawEvidence(receivedBefore:limit:)``).
    public func purgeRawEvidence(receivedBefore cutoff: Date, limit: Int) async throws -> Int {
        try await database.withTransaction { tx in
            try await tx.query(
                "UPDATE evidence SET body = '', form = ? WHERE id IN (SELECT id FROM evidence WHERE received_at < ? AND kind <> 'receipt' AND (form IS NULL OR form <> ?) ORDER BY id LIMIT ?) RETURNING id",
                [
                    .text(StoredRaw.purged), .text(Self.timestamp(cutoff)), .text(StoredRaw.purged),
                    .integer(Int64(max(1, limit))),
                ]
            ).count
        }
    }

    /// Rebuilds every stored raw evidence and checks it against the digest it was stored under (the SHA-256 of its
    /// kind and raw text): what proves that storing evidence compacted loses nothing. Rows the retention setting
    /// emptied are counted apart.
    /// - Returns: How many were checked, the ids of any that do not match, and how many were purged.
    public func checkStoredEvidence() async throws -> (checked: Int, mismatched: [Int64], purged: Int) {
        try await database.withReadTransaction { tx in
            var checked = 0
            var purged = 0
            var mismatched: [Int64] = []
            var after: Int64 = 0
            while true {
                let rows = try await tx.query(
                    "SELECT id, digest, kind, body, form FROM evidence WHERE id > ? ORDER BY id LIMIT 500",
                    [.integer(after)])
                guard let last = rows.last?["id"]?.int else { break }
                for row in rows {
                    let id = row["id"]?.int ?? 0
                    if row["form"]?.string == StoredRaw.purged {
                        purged += 1
                        continue
                    }
                    let raw = try await Self.rawText(
                        tx, body: row["body"]?.string ?? "", form: row["form"]?.string, id: id)
                    if HexDigest.sha256((row["kind"]?.string ?? "") + "\n" + raw) != row["digest"]?.string {
                        mismatched.append(id)
                    }
                    checked += 1
                }
                after = last
            }
            return (checked, mismatched, purged)
        }
    }
}
