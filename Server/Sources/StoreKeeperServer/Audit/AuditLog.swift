import Foundation
import StoreKeeperAPI
import StoreKeeperStorage
import StoreKeeperWire

/// The audit log's reading side: `GET /v1/audit` and the dashboard's Audit page, a page at a time inside the
/// caller's project. (Writing is the store's: ``AuditTrail``.)
struct AuditLog: Sendable {
    let store: any AuditStore
    let apps: AppDirectory

    /// The most entries one page holds, and how many when `limit` is not given.
    static let maximumLimit = 1000
    static let defaultLimit = 100

    /// A page of the project's entries after the cursor `after` (an entry id a page handed out).
    /// - Throws: `invalid_parameter` naming a cursor or limit that is not one.
    func page(after: String?, limit: String?, bundleID: String) async throws -> AuditLogResponse {
        let project = try apps.project(bundleID)
        let cursor = try after.map { text throws(ServiceError) -> Int64 in
            guard text.utf8.count <= 19, let id = Int64(text), id >= 0 else {
                throw .invalid(
                    .invalidParameter, "after=\(UntrustedText.quoted(text)): expected a next_cursor this log handed out"
                )
            }
            return id
        }
        let count = try PageLimit.parse(limit, maximum: Self.maximumLimit, default: Self.defaultLimit)
        let entries = try await store.auditEntries(in: project, after: cursor, limit: count)
        return AuditLogResponse(
            entries: entries.map {
                AuditLogEntry(
                    id: $0.id, at: $0.at, actor: $0.actor, address: $0.address, route: $0.route, target: $0.target,
                    summary: $0.summary)
            },
            nextCursor: entries.last.map { String($0.id) } ?? after)
    }
}
