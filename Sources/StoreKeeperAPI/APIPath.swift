import Foundation

/// The `/v1` paths, built the one way the server routes them (an app user id is percent-encoded as one path
/// segment).
public enum APIPath {
    /// `POST`: an app receipt.
    public static let receipts = "/v1/receipts"
    /// `POST`: a StoreKit 2 signed transaction.
    public static let transactions = "/v1/transactions"
    /// `POST`: App Store Server Notifications (Apple's).
    public static let notifications = "/v1/notifications/appstore"
    /// `POST`: a promotional offer signature.
    public static let offerSignature = "/v1/offers/sign"
    /// `POST`: bring in an existing customer (secret key).
    public static let imports = "/v1/imports"

    /// `GET`: a subscriber.
    public static func subscriber(_ appUserID: String) -> String { "/v1/subscribers/" + segment(appUserID) }

    /// `GET`: intro-offer eligibility for products.
    public static func eligibility(_ appUserID: String, productIDs: [String]) -> String {
        let products = productIDs.map(segment).joined(separator: ",")
        return subscriber(appUserID) + "/eligibility?product_ids=" + products
    }

    /// `POST`: make another id a name for this subscriber.
    public static func alias(_ appUserID: String) -> String { subscriber(appUserID) + "/alias" }

    /// `GET`: a subscriber's history (secret key).
    public static func events(_ appUserID: String) -> String { subscriber(appUserID) + "/events" }

    /// `GET`: the webhook deliveries of the events about a subscriber (secret key).
    public static func subscriberDeliveries(_ appUserID: String) -> String {
        subscriber(appUserID) + "/webhook_deliveries"
    }

    /// `POST` a new webhook endpoint, `GET` the project's endpoints (secret key).
    public static let webhooks = "/v1/webhooks"

    /// `DELETE`: a webhook endpoint (secret key).
    public static func webhook(_ id: String) -> String { webhooks + "/" + segment(id) }

    /// `GET`: an endpoint's delivery log, optionally of one status (secret key).
    public static func deliveries(_ endpointID: String, status: String? = nil) -> String {
        webhook(endpointID) + "/deliveries" + (status.map { "?status=" + segment($0) } ?? "")
    }

    /// `GET`: a business metric (secret key): `name` is `active_subscriptions`, `mrr`…; `query` holds `from`, `to`,
    /// `interval`, `split`, `environment` and `format` as wanted.
    public static func metric(_ name: String, query: [(String, String)] = []) -> String {
        "/v1/metrics/" + segment(name)
            + (query.isEmpty ? "" : "?" + query.map { segment($0.0) + "=" + segment($0.1) }.joined(separator: "&"))
    }

    /// `GET`: a page of the project's customers (secret key); `query` holds `status`, `product_id`, `entitlement`,
    /// `storefront`, `environment`, `cursor`, `limit` and `format` as wanted.
    public static func subscribers(query: [(String, String)] = []) -> String {
        "/v1/subscribers"
            + (query.isEmpty ? "" : "?" + query.map { segment($0.0) + "=" + segment($0.1) }.joined(separator: "&"))
    }

    /// `GET`: the project's event feed (secret key), after `cursor` (a page's `next_cursor`; `nil` from the first),
    /// at most `limit` events, as JSON or `ndjson`.
    public static func eventFeed(after cursor: String? = nil, limit: Int? = nil, format: String? = nil) -> String {
        let query = [("after", cursor), ("limit", limit.map(String.init)), ("format", format)].compactMap { pair in
            pair.1.map { segment(pair.0) + "=" + segment($0) }
        }
        return "/v1/events" + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
    }

    /// `POST` a new offering, `GET` the project's offerings (secret key).
    public static let offerings = "/v1/offerings"

    /// `GET`, `PUT`, `DELETE`: one offering (secret key).
    public static func offering(_ identifier: String) -> String { offerings + "/" + segment(identifier) }

    /// `PUT`: which offering is current (secret key).
    public static let currentOffering = "/v1/offerings/current"

    /// `POST` a new experiment, `GET` the project's experiments (secret key).
    public static let experiments = "/v1/experiments"

    /// `GET`: one experiment (secret key); add `/start`, `/stop` (`POST`) or `/results` (`GET`).
    public static func experiment(_ identifier: String) -> String { experiments + "/" + segment(identifier) }

    /// `GET` or `PUT`: the project's targeting rules (secret key).
    public static let targeting = "/v1/targeting"

    /// `POST` attributes to set or remove, `DELETE` them all (public key).
    public static func attributes(_ appUserID: String) -> String { subscriber(appUserID) + "/attributes" }

    /// `GET`: the offerings to show a customer (public key).
    public static func subscriberOfferings(_ appUserID: String) -> String { subscriber(appUserID) + "/offerings" }

    /// `POST`: a `test` event to one endpoint (secret key).
    public static func webhookTest(_ endpointID: String) -> String { webhook(endpointID) + "/test" }

    /// `POST`: deliver an event again (secret key).
    public static func redeliver(_ deliveryID: Int64) -> String { webhooks + "/deliveries/\(deliveryID)/redeliver" }

    /// `value` as one path segment or query value: everything but unreserved characters percent-encoded.
    public static func segment(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? value
    }

    static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
