import Foundation

/// The few fields of a customer's subscriber document a retention rule reads — the customer, their aliases,
/// each subscription's state, offer, storefront and price-increase status, and their attributes — decoded from the
/// cached document without building the whole `SubscriberResponse` (Apple waits on this answer; that decode was
/// most of the endpoint's own work). The webhook event of a promotional offer decodes the whole document.
struct StandingDocument: Decodable, Sendable {
    struct Customer: Decodable, Sendable {
        var appUserID: String
        var aliases: [String]
        var subscriptions: [Subscription]
        enum CodingKeys: String, CodingKey {
            case appUserID = "app_user_id", aliases, subscriptions
        }
    }

    struct Subscription: Decodable, Sendable {
        struct Offer: Decodable, Sendable { var kind: String? }
        var originalTransactionID: String
        var status: String
        var offer: Offer?
        var storefront: String?
        var priceIncreaseStatus: Int?
        enum CodingKeys: String, CodingKey {
            case originalTransactionID = "original_transaction_id", status, offer, storefront
            case priceIncreaseStatus = "price_increase_status"
        }
    }

    var subscriber: Customer
    var attributes: [String: String]?
}
