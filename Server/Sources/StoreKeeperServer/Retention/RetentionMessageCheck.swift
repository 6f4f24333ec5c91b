import AppStoreClient
import Foundation
import StoreKeeperAPI

/// What Apple holds of a project's retention messages, asked when the owner saves rules: a rule naming a message
/// no app of the project uploaded, or one Apple's review rejected, would only ever show the default message, so
/// it is refused by name. The server can know only when an app has App Store Server API credentials and Apple
/// answers Get Message List (in either environment); otherwise the rules are saved unchecked. A pending message
/// is accepted: Apple shows it once approved. (Apple's list does not say whether a message has an image.)
struct RetentionMessageCheck: Sendable {
    /// Asks Apple; `nil`: nothing to ask with (no checks).
    let client: AppStoreClient?

    /// Each message's best state across the apps and environments that answered, or `nil` when none did.
    func states(_ apps: [AppRuntime]) async -> [String: String]? {
        guard let client else { return nil }
        let sameHost = client.configuration.serverAPIBaseURL == client.configuration.serverAPISandboxBaseURL
        let environments: [AppStoreClient.ServerAPIEnvironment] = sameHost ? [.sandbox] : [.production, .sandbox]
        var states: [String: String]?
        for app in apps {
            guard let credentials = app.credentials else { continue }
            for environment in environments {
                guard
                    let list = try? await client.retentionMessages(credentials: credentials, environment: environment)
                else { continue }
                var found = states ?? [:]
                for item in list.messageIdentifiers ?? [] {
                    guard let id = item.messageIdentifier?.lowercased() else { continue }
                    let state = item.messageState ?? "PENDING"
                    if Self.rank(state) > Self.rank(found[id]) { found[id] = state }
                }
                states = found
            }
        }
        return states
    }

    static func rank(_ state: String?) -> Int {
        switch state {
        case nil: 0
        case "REJECTED": 1
        case "APPROVED": 3
        default: 2
        }
    }

    /// Refuses the first rule naming a message Apple does not hold or rejected.
    static func check(_ rules: RetentionRules, states: [String: String]) throws {
        for (index, rule) in rules.rules.enumerated() {
            guard let id = rule.respond.messageID else { continue }
            let field = "rules[\(index)].respond.\(rule.respond.kind).message_id \"\(id.prefix(40))\""
            switch states[id.lowercased()] {
            case nil:
                throw RetentionCheck.invalid(
                    "\(field) is not a message Apple holds for this app (Get Message List); upload it first (storekeeper retention push)"
                )
            case "REJECTED"?:
                throw RetentionCheck.invalid("\(field) was rejected by Apple's review; Apple would never show it")
            default: continue
            }
        }
    }
}
