import Foundation

/// The API keys on SQL, by hash.
public struct SQLKeyStore: KeyStore {
    /// The database (the store's, audited).
    let database: any SQLDatabase

    /// Makes the stored API keys exactly `keys` (by hash), in one transaction: a key no longer configured is
    /// deleted with the same commit that adds the new ones, so a removed key stops working at the next start.
    public func replaceAPIKeys(_ keys: [String: APIKeyRecord]) async throws {
        _ = try await database.withTransaction { tx in
            let stored = try await tx.query("SELECT key_hash FROM api_keys", []).compactMap { $0["key_hash"]?.string }
            for hash in stored where keys[hash] == nil {
                try await tx.query("DELETE FROM api_keys WHERE key_hash = ?", [.text(hash)])
            }
            for (hash, record) in keys.sorted(by: { $0.key < $1.key }) {
                try await tx.query(
                    "INSERT INTO api_keys (key_hash, kind, bundle_id, scope) VALUES (?, ?, ?, ?) ON CONFLICT (key_hash) DO UPDATE SET kind = excluded.kind, bundle_id = excluded.bundle_id, scope = excluded.scope",
                    [.text(hash), .text(record.kind.rawValue), .text(record.bundleID), .text(record.scope.rawValue)])
            }
        }
    }

    /// An API key by hash.
    public func apiKey(hash: String) async throws -> APIKeyRecord? {
        try await database.withReadTransaction { tx in
            guard
                let row = try await tx.query(
                    "SELECT kind, bundle_id, scope FROM api_keys WHERE key_hash = ?", [.text(hash)]
                ).first,
                let kind = APIKeyRecord.Kind(rawValue: row["kind"]?.string ?? "")
            else { return nil }
            // A scope this build does not know (written by a newer one) allows the least.
            let scope = APIKeyRecord.Scope(rawValue: row["scope"]?.string ?? "") ?? .read
            return APIKeyRecord(kind: kind, bundleID: row["bundle_id"]?.string ?? "", scope: scope)
        }
    }
}
