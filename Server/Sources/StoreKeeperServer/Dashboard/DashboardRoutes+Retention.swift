import Foundation
import Hummingbird
import StoreKeeperAPI

/// The Retention page (`/dashboard/retention`) and its rules editor (`POST /dashboard/retention`, with the
/// session's CSRF token): rules are checked exactly as `PUT /v1/retention/rules` checks them, and a refusal is
/// shown with the text as it was sent, nothing saved.
extension DashboardRoutes {
    func addRetentionRoutes(to router: Router<BasicRequestContext>) {
        router.get("dashboard/retention") { request, _ in
            try await withSession(request) { _, session in
                let saved = request.uri.queryParameters.get("saved") != nil
                return Self.page(try await retentionPage(session, text: nil, error: nil, saved: saved))
            }
        }
        router.post("dashboard/retention") { request, _ in
            try await withSession(request) { _, session in
                let fields = HTMLText.formFields(try await Self.formBody(request))
                guard fields["csrf"] == session.csrf else { return Self.forbidden() }
                let text = fields["rules"] ?? ""
                do {
                    let data = Data(text.utf8)
                    try RetentionCheck.refuseUnknownFields(data)
                    let rules: RetentionRules
                    do {
                        rules = try APICoding.decoder().decode(RetentionRules.self, from: data)
                    } catch {
                        throw APIError.badRequest(
                            .invalidRetentionRule, "the rules are not a JSON object {\"rules\": [...]} of rules")
                    }
                    _ = try await retention.replaceRules(rules, bundleID: session.bundleID)
                    return Self.redirect("/dashboard/retention?saved=1")
                } catch let error as APIError {
                    return Self.page(
                        try await retentionPage(session, text: text, error: error.message, saved: false),
                        status: .badRequest)
                }
            }
        }
    }

    func retentionPage(_ session: DashboardSessions.Session, text: String?, error: String?, saved: Bool)
        async throws -> String
    {
        let rules = try await retention.rules(bundleID: session.bundleID)
        let encoder = APICoding.encoder()
        encoder.outputFormatting.insert(.prettyPrinted)
        let shown = try text ?? String(decoding: encoder.encode(rules), as: UTF8.self)
        return DashboardPages.layout(
            title: "Retention", session: session,
            body: DashboardPages.retention(rules, text: shown, csrf: session.csrf, error: error, saved: saved))
    }
}
