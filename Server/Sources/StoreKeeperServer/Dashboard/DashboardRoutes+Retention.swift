import Foundation
import Hummingbird
import StoreKeeperAPI
import SubscriptionMetrics

/// The Retention page (`/dashboard/retention`): how each rule did (requests, saves, save rate), and its rules editor (`POST /dashboard/retention`, with the
/// session's CSRF token): rules are checked exactly as `PUT /v1/retention/rules` checks them, and a refusal is
/// shown with the text as it was sent, nothing saved.
extension DashboardRoutes {
    func addRetentionRoutes(to router: Router<BasicRequestContext>) {
        addRulesEditor(
            to: router, path: "dashboard/retention", formPath: "dashboard/retention", endpoint: .putRetentionRules,
            page: { session, text, error, saved in
                try await retentionPage(session, text: text, error: error, saved: saved)
            },
            save: { data, session in
                let rules: RetentionRules
                do {
                    rules = try APICall.strictlyDecoded(RetentionRules.self, from: data)
                } catch let error as ServiceError where error.code == .unknownField {
                    throw error
                } catch {
                    throw ServiceError.invalid(
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
        let outcomes = try await retentionOutcomes(session)
        return DashboardPages.layout(
            title: "Retention", session: session,
            body: DashboardPages.retentionOutcomes(
                outcomes.requests, outcomes.saves, environment: outcomes.environment, now: subscribers.now())
                + DashboardPages.retention(
                    rules, text: shown, csrf: session.formToken(for: .putRetentionRules), error: error, saved: saved))
    }

    /// The last 13 weeks of `retention_requests` and `retention_saves` by rule, in Production — or in the Sandbox
    /// when Production has none (a project before launch, the demo).
    func retentionOutcomes(_ session: DashboardSessions.Session) async throws -> (
        requests: MetricResponse, saves: MetricResponse, environment: String
    ) {
        let now = subscribers.now()
        func outcomes(_ environment: String) async throws -> [MetricResponse] {
            let queries = [MetricName.retentionRequests, .retentionSaves].map { name in
                MetricQuery(
                    name: name, from: now - DashboardPages.retentionWeeks * 7 * 86_400, to: now, interval: .week,
                    split: .rule, environments: [environment], now: now)
            }
            return try await metrics.metrics(queries, bundleID: session.bundleID)
        }
        var environment = "Production"
        var results = try await outcomes(environment)
        if DashboardPages.isEmpty([results[0]]) {
            let sandbox = try await outcomes("Sandbox")
            if !DashboardPages.isEmpty([sandbox[0]]) { (environment, results) = ("Sandbox", sandbox) }
        }
        return (results[0], results[1], environment)
    }
}
