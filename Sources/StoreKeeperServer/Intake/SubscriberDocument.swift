import AppStoreModels
import Foundation
import StoreKeeperStorage
import SubscriptionEngine

/// The `subscriber` object of `GET /v1/subscribers/{id}` (and of every call that returns a subscriber):
/// entitlements, subscriptions with their explanations, other purchases, aliases and intro eligibility.
struct SubscriberDocument: Encodable {
    var appUserID: String
    var aliases: [String]
    var firstSeen: Date?
    var state: CustomerState

    enum CodingKeys: String, CodingKey {
        case appUserID = "app_user_id", aliases, firstSeen = "first_seen", entitlements, subscriptions
        case nonSubscriptions = "non_subscriptions", introEligibility = "intro_eligibility"
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(appUserID, forKey: .appUserID)
        try c.encode(aliases, forKey: .aliases)
        try c.encode(firstSeen, forKey: .firstSeen)
        try c.encode(state.entitlements, forKey: .entitlements)
        try c.encode(state.subscriptions, forKey: .subscriptions)
        try c.encode(state.purchases, forKey: .nonSubscriptions)
        try c.encode(state.introEligibility, forKey: .introEligibility)
    }

    /// Our JSON: sorted keys, RFC 3339 dates, unescaped slashes.
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = AppleDateFormat.rfc3339Encoding
        return encoder
    }()

    /// The whole response body: `{"request_date", "request_date_ms", "subscriber"}` around an encoded subscriber.
    /// - Parameters:
    ///   - subscriber: The encoded `subscriber` object.
    ///   - instant: The server's clock at the request.
    /// - Returns: The JSON body.
    static func response(subscriber: [UInt8], at instant: Date) -> [UInt8] {
        var body: [UInt8] = []
        body.reserveCapacity(subscriber.count + 96)
        body += Array(
            "{\"request_date\":\"\(AppleDateFormat.rfc3339(instant))\",\"request_date_ms\":\(AppleDateFormat.milliseconds(instant)),\"subscriber\":"
                .utf8)
        body += subscriber
        body.append(UInt8(ascii: "}"))
        return body
    }
}
