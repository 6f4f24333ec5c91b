import Foundation
import Hummingbird
import StoreKeeperAPI

/// The Offerings page (`/dashboard/offerings`) and its targeting editor (`POST /dashboard/targeting`, with the
/// session's CSRF token): rules are checked exactly as `PUT /v1/targeting` checks them, and a refusal is shown
/// with the text as it was sent, nothing saved.
extension DashboardRoutes {
    func addOfferingRoutes(to router: Router<BasicRequestContext>) {
        addRulesEditor(
            to: router, path: "dashboard/offerings", formPath: "dashboard/targeting", endpoint: .putTargeting,
            page: { session, text, error, saved in
                try await offeringsPage(session, rules: text, error: error, saved: saved)
            },
            save: { data, session in
                let rules: TargetingRules
                do {
                    rules = try APICall.strictlyDecoded(TargetingRules.self, from: data)
                } catch let error as ServiceError where error.code == .unknownField {
                    throw error
                } catch {
                    throw ServiceError.invalid(
                        .invalidTargeting, "the rules are not a JSON object {\"rules\": [...]} of rules")
                }
                _ = try await offerings.replaceTargeting(rules, bundleID: session.bundleID)
            })
    }

    func offeringsPage(_ session: DashboardSessions.Session, rules: String?, error: String?, saved: Bool)
        async throws -> String
    {
        let book = try await offerings.book(bundleID: session.bundleID)
        var shown: [(results: ExperimentResults, enrolment: MetricResponse)] = []
        for experiment in book.experiments.sorted(by: {
            ($0.startedAt ?? .distantFuture) > ($1.startedAt ?? .distantFuture)
        }) {
            shown.append(try await experiments.report(experiment.identifier, bundleID: session.bundleID))
        }
        let encoder = APICoding.encoder()
        encoder.outputFormatting.insert(.prettyPrinted)
        let text = try rules ?? String(decoding: encoder.encode(TargetingRules(rules: book.rules)), as: UTF8.self)
        return DashboardPages.layout(
            title: "Offerings", session: session,
            body: DashboardPages.offerings(
                book, experiments: shown, rules: text, csrf: session.formToken(for: .putTargeting), error: error,
                saved: saved))
    }
}
