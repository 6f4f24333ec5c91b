import Foundation
import Hummingbird
import StoreKeeperAPI
import StoreKeeperStorage

/// The Audit page (an `admin` key's session, as `GET /v1/audit`), and the trail every save in the dashboard leaves
/// in the log.
extension DashboardRoutes {
    /// The entries one page of the Audit page shows.
    static let auditPageSize = 200

    func addAuditRoutes(to router: Router<BasicRequestContext>) {
        router.get("dashboard/audit") { request, _ in
            try await withSession(request) { _, session in
                guard session.scope.includes(.admin) else {
                    let text =
                        "The audit log needs a secret key of scope admin; this session's key has scope "
                        + "\(session.scope.rawValue)."
                    return Self.page(DashboardPages.message(title: "Not allowed", text: text), status: .forbidden)
                }
                let after = request.uri.queryParameters.get("after").map { String($0) }
                do {
                    let page = try await audit.page(
                        after: after, limit: String(Self.auditPageSize), bundleID: session.bundleID)
                    let body = DashboardPages.audit(page, full: page.entries.count == Self.auditPageSize)
                    return Self.page(DashboardPages.layout(title: "Audit", session: session, body: body))
                } catch let error as ServiceError {
                    return Self.page(
                        DashboardPages.layout(
                            title: "Audit", session: session,
                            body: "<p class=\"error\">\(HTMLText.escape(error.message))</p>"),
                        status: APIError(error).status)
                }
            }
        }
    }

    /// Runs `change` (a save on behalf of `session`, as the API route `endpoint`) with the audit trail of a
    /// dashboard change: the session's key by fingerprint, the route it stands for, the posted text in brief.
    func audited<T: Sendable>(
        _ endpoint: APIEndpoint, session: DashboardSessions.Session, request: Request, body: Data,
        target: String? = nil, _ change: () async throws -> T
    ) async throws -> T {
        let project = try subscribers.apps.project(session.bundleID)
        let trail = AuditTrail(
            AuditEntry(
                project: project.id, at: subscribers.now(),
                actor: AuditNote.actor(keyHash: session.keyHash, dashboard: true),
                address: request.headers[AuditNote.peerAddress], route: endpoint.description, target: target,
                summary: AuditNote.summary(of: body)))
        return try await AuditTrail.$current.withValue(trail) { try await change() }
    }
}
