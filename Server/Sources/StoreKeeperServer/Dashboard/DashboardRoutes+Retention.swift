import Foundation
import Hummingbird
import StoreKeeperAPI

/// The Retention page (`/dashboard/retention`) and its rules editor (`POST /dashboard/retention`, with the
/// session's CSRF token): rules are checked exactly as `PUT /v1/retention/rules` checks them, and a refusal is
/// shown with the text as it was sent, nothing saved.
extension DashboardRoutes {
    func addRetentionRoutes(to router: Router<BasicRequestContext>) {
        addRulesEditor(
            to: router, path: "dashboard/retention", formPath: "dashboard/retention",
            page: { session, text, error, saved in
                try await retentionPage(session, text: text, error: error, saved: saved)
            },
            save: { data, session in
                try RetentionCheck.refuseUnknownFields(data)
                let rules: RetentionRules
                do {
                    rules = try APICoding.decoder().decode(RetentionRules.self, from: data)
                } catch {
                    throw APIError.badRequest(
                        .invalidRetentionRule, "the rules are not a JSON object {\"rules\": [...]} of rules")
                }
                _ = try await retention.replaceRules(rules, bundleID: session.bundleID)
            })
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
