import Foundation
import Hummingbird
import StoreKeeperAPI

/// A page of JSON rules and their editor, the one way the dashboard edits rules (targeting, retention): the page
/// at `path`; a form posted to `formPath` with the session's CSRF token is saved through `save`, which checks it
/// as the API does and throws the API's refusal, shown on the page with the text as it was sent, nothing saved.
/// Saving needs the scope of the API route the editor stands for (`endpoint`): a key of a narrower scope sees the
/// rules without the form, and its posts are refused (403), nothing saved.
extension DashboardRoutes {
    typealias RulesPage =
        @Sendable (DashboardSessions.Session, _ text: String?, _ error: String?, _ saved: Bool)
        async throws -> String

    func addRulesEditor(
        to router: Router<BasicRequestContext>, path: String, formPath: String, endpoint: APIEndpoint,
        page: @escaping RulesPage,
        save: @escaping @Sendable (Data, DashboardSessions.Session) async throws -> Void
    ) {
        router.get(RouterPath(path)) { request, _ in
            try await withSession(request) { _, session in
                let saved = request.uri.queryParameters.get("saved") != nil
                return Self.page(try await page(session, nil, nil, saved))
            }
        }
        router.post(RouterPath(formPath)) { request, _ in
            try await withSession(request) { _, session in
                let fields = HTMLText.formFields(try await Self.formBody(request))
                guard fields["csrf"] == session.csrf else { return Self.forbidden() }
                if let refusal = Self.scopeRefusal(endpoint, session, "Saving rules", "Nothing was saved.") {
                    return refusal
                }
                let text = fields["rules"] ?? ""
                do {
                    let body = Data(text.utf8)
                    try await audited(endpoint, session: session, request: request, body: body) {
                        try await save(body, session)
                    }
                    return Self.redirect("/\(path)?saved=1")
                } catch let error as ServiceError {
                    return Self.page(try await page(session, text, error.message, false), status: .badRequest)
                }
            }
        }
    }
}
