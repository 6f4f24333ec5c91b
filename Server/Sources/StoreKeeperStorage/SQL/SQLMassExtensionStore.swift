import Foundation

/// Support's mass extension requests on SQL (see ``MassExtensionStore``).
public struct SQLMassExtensionStore: MassExtensionStore {
    /// The database (the store's, audited).
    let database: any SQLDatabase

    /// Keeps `request` (see ``MassExtensionStore/recordMassExtension(_:)``).
    public func recordMassExtension(_ request: MassExtensionRecord) async throws {
        _ = try await database.withTransaction { tx in
            try await tx.query(
                "INSERT INTO mass_extensions (project, id, bundle_id, product_id, days, reason, storefronts, requested_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    .text(request.project.id), .text(request.id), .text(request.bundleID), .text(request.productID),
                    .integer(Int64(request.days)), .text(request.reason),
                    .text(request.storefronts.joined(separator: ",")), .text(SQLStore.timestamp(request.requestedAt)),
                ])
        }
    }

    /// `project`'s request `id` (see ``MassExtensionStore/massExtension(_:in:)``).
    public func massExtension(_ id: String, in project: ProjectScope) async throws -> MassExtensionRecord? {
        let rows = try await database.read(
            "SELECT bundle_id, product_id, days, reason, storefronts, requested_at FROM mass_extensions WHERE project = ? AND id = ?",
            [.text(project.id), .text(id)])
        return rows.first.map { row in
            MassExtensionRecord(
                project: project, id: id, bundleID: row["bundle_id"]?.string ?? "",
                productID: row["product_id"]?.string ?? "", days: Int(row["days"]?.int ?? 0),
                reason: row["reason"]?.string ?? "",
                storefronts: (row["storefronts"]?.string ?? "").split(separator: ",").map(String.init),
                requestedAt: SQLStore.date(row["requested_at"]))
        }
    }
}
