import Foundation
import Hummingbird
import StoreKeeperAPI

/// The support view's actions on a customer's page: each a form with the session's CSRF token and a ticked
/// confirmation, allowed to the scope of the API route it stands for, audited as a dashboard change.
extension DashboardRoutes {
    func addSupportRoutes(to router: Router<BasicRequestContext>) {
        router.post("dashboard/subscribers/grant") { request, _ in
            try await withSession(request) { _, session in
                let fields = HTMLText.formFields(try await Self.formBody(request))
                guard fields["csrf"] == session.csrf else { return Self.forbidden() }
                let endpoint = APIEndpoint.postGrant
                if let needed = endpoint.scope, !session.scope.includes(needed) {
                    let text =
                        "Granting access needs a secret key of scope \(needed.rawValue); this session's key has scope "
                        + "\(session.scope.rawValue). Nothing was granted."
                    return Self.page(DashboardPages.message(title: "Not allowed", text: text), status: .forbidden)
                }
                let id = fields["id"] ?? ""
                guard fields["confirm"] == "yes" else {
                    let text = "Tick the confirmation to grant access without a purchase. Nothing was granted."
                    return Self.page(DashboardPages.message(title: "Not confirmed", text: text), status: .badRequest)
                }
                let entitlement = fields["entitlement"] ?? ""
                let reason = fields["reason"].flatMap { $0.isEmpty ? nil : $0 }
                let body = GrantPost(duration: fields["duration"], reason: reason)
                do {
                    let project = try subscribers.apps.project(session.bundleID)
                    _ = try await audited(
                        endpoint, session: session, request: request, body: try JSONEncoder().encode(body),
                        target: AuditNote.customer(id, in: project) + " entitlement=" + entitlement
                    ) {
                        try await grants.grant(
                            body, appUserID: id, entitlement: entitlement, bundleID: session.bundleID)
                    }
                } catch let error as ServiceError {
                    return Self.page(
                        DashboardPages.message(title: "Not granted", text: error.message + " Nothing was granted."),
                        status: .badRequest)
                }
                return Self.redirect("/dashboard/subscribers?id=\(APIPath.segment(id))&granted=1")
            }
        }
    }
}
