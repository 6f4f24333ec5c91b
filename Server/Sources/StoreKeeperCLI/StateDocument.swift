import Foundation
import StoreKeeperAPI
import StoreKeeperServer
import SubscriptionEngine

/// What `storekeeper state --json` prints: the engine's answer in the API's own shapes and names — the parts of a
/// `Subscriber` that evidence alone decides (no app user id, aliases or first sighting), and the instant.
struct StateDocument: Encodable {
    /// The instant the state is for.
    var evaluatedAt: Date
    /// Only evidence observed by then was used (`nil`: all of it).
    var knownAt: Date?
    /// The subscriber the API would answer with for this evidence.
    var subscriber: Subscriber

    init(_ state: CustomerState, knownAt: Date? = nil) {
        evaluatedAt = state.evaluatedAt
        self.knownAt = knownAt
        subscriber = Subscriber(appUserID: "", aliases: [], firstSeen: nil, state: state)
    }

    enum CodingKeys: String, CodingKey {
        case evaluatedAt = "evaluated_at", knownAt = "known_at", entitlements, subscriptions, nonSubscriptions =
            "non_subscriptions"
        case introEligibility = "intro_eligibility"
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(evaluatedAt, forKey: .evaluatedAt)
        try c.encode(knownAt, forKey: .knownAt)
        try c.encode(subscriber.entitlements, forKey: .entitlements)
        try c.encode(subscriber.subscriptions, forKey: .subscriptions)
        try c.encode(subscriber.nonSubscriptions, forKey: .nonSubscriptions)
        try c.encode(subscriber.introEligibility, forKey: .introEligibility)
    }

    /// The document's JSON: the API's encoding, indented.
    func json() throws -> String {
        let encoder = APICoding.encoder()
        encoder.outputFormatting.insert(.prettyPrinted)
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}
