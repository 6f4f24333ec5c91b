import Hummingbird
import StoreKeeperAPI

/// Retention Messaging over HTTP: Apple's real-time request (no key: Apple signs it) and the project's rules
/// (secret key).
struct RetentionRoutes: APIFeature {
    let retention: RetentionService

    func register(_ handlers: inout APIHandlers) {
        handlers.on(.postRetentionRequest) { call in
            let answer = try await retention.answer(try await call.body())
            return try call.json(answer)  // Apple's field names: the type declares no wire names of its own
        }
        handlers.on(.getRetentionRules) { call in try call.json(try await retention.rules(bundleID: call.bundleID)) }
        handlers.on(.putRetentionRules) { call in
            let rules = try await call.decode(RetentionRules.self)
            return try call.json(try await retention.replaceRules(rules, bundleID: call.bundleID))
        }
    }
}
