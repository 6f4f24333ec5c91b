import StoreKeeperAPI

/// The audit room: `GET /v1/audit` (an `admin` key).
struct AuditRoutes: APIFeature {
    let log: AuditLog

    func register(_ handlers: inout APIHandlers) {
        handlers.on(.getAudit) { call in
            try call.json(
                try await log.page(after: call.query("after"), limit: call.query("limit"), bundleID: call.bundleID))
        }
    }
}
