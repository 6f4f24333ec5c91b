import Foundation

/// The `/v1` paths, each built from its route's ``APIEndpoint`` pattern, the one the server's router registers (an
/// id is percent-encoded as one path segment).
public enum APIPath {
    /// `POST`: an app receipt.
    public static let receipts = APIEndpoint.postReceipt.path
    /// `POST`: a StoreKit 2 signed transaction.
    public static let transactions = APIEndpoint.postTransaction.path
    /// `POST`: App Store Server Notifications (Apple's).
    public static let notifications = APIEndpoint.postNotification.path
    /// `POST`: a promotional offer signature.
    public static let offerSignature = APIEndpoint.postOfferSignature.path
    /// `POST`: bring in an existing customer (secret key).
    public static let imports = APIEndpoint.postImport.path

    /// `GET`: a subscriber.
    public static func subscriber(_ appUserID: String) -> String { APIEndpoint.getSubscriber.path(appUserID) }

    /// `GET`: intro-offer eligibility for products.
    public static func eligibility(_ appUserID: String, productIDs: [String]) -> String {
        let products = productIDs.map(segment).joined(separator: ",")
        return APIEndpoint.getEligibility.path(appUserID) + "?product_ids=" + products
    }

    /// `POST`: make another id a name for this subscriber.
    public static func alias(_ appUserID: String) -> String { APIEndpoint.postAlias.path(appUserID) }

    /// `GET`: a subscriber's history (secret key).
    public static func events(_ appUserID: String) -> String { APIEndpoint.getEvents.path(appUserID) }

    /// `GET`: the webhook deliveries of the events about a subscriber (secret key).
    public static func subscriberDeliveries(_ appUserID: String) -> String {
        APIEndpoint.getSubscriberDeliveries.path(appUserID)
    }

    /// `POST` a new webhook endpoint, `GET` the project's endpoints (secret key).
    public static let webhooks = APIEndpoint.postWebhook.path

    /// `DELETE`: a webhook endpoint (secret key).
    public static func webhook(_ id: String) -> String { APIEndpoint.deleteWebhook.path(id) }

    /// `GET`: an endpoint's delivery log, optionally of one status (secret key).
    public static func deliveries(_ endpointID: String, status: String? = nil) -> String {
        APIEndpoint.getWebhookDeliveries.path(endpointID) + (status.map { "?status=" + segment($0) } ?? "")
    }

    /// `GET`: a business metric (secret key): `name` is `active_subscriptions`, `mrr`…; `query` holds `from`, `to`,
    /// `interval`, `split`, `environment` and `format` as wanted.
    public static func metric(_ name: String, query: [(String, String)] = []) -> String {
        APIEndpoint.getMetric.path(name)
            + (query.isEmpty ? "" : "?" + query.map { segment($0.0) + "=" + segment($0.1) }.joined(separator: "&"))
    }

    /// `GET`: a page of the project's customers (secret key); `query` holds `status`, `product_id`, `entitlement`,
    /// `storefront`, `environment`, `cursor`, `limit` and `format` as wanted.
    public static func subscribers(query: [(String, String)] = []) -> String {
        APIEndpoint.getSubscribers.path
            + (query.isEmpty ? "" : "?" + query.map { segment($0.0) + "=" + segment($0.1) }.joined(separator: "&"))
    }

    /// `GET`: the project's event feed (secret key), after `cursor` (a page's `next_cursor`; `nil` from the first),
    /// at most `limit` events, as JSON or `ndjson`.
    public static func eventFeed(after cursor: String? = nil, limit: Int? = nil, format: String? = nil) -> String {
        let query = [("after", cursor), ("limit", limit.map(String.init)), ("format", format)].compactMap { pair in
            pair.1.map { segment(pair.0) + "=" + segment($0) }
        }
        return APIEndpoint.getEventFeed.path + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
    }

    /// `POST` a new offering, `GET` the project's offerings (secret key).
    public static let offerings = APIEndpoint.postOffering.path

    /// `GET`, `PUT`, `DELETE`: one offering (secret key).
    public static func offering(_ identifier: String) -> String { APIEndpoint.getOffering.path(identifier) }

    /// `PUT`: which offering is current (secret key).
    public static let currentOffering = APIEndpoint.putCurrentOffering.path

    /// `POST` a new experiment, `GET` the project's experiments (secret key).
    public static let experiments = APIEndpoint.postExperiment.path

    /// `GET`: one experiment (secret key); add `/start`, `/stop` (`POST`) or `/results` (`GET`).
    public static func experiment(_ identifier: String) -> String { APIEndpoint.getExperiment.path(identifier) }

    /// `GET` or `PUT`: the project's targeting rules (secret key).
    public static let targeting = APIEndpoint.getTargeting.path

    /// `POST` attributes to set or remove, `DELETE` them all (public key).
    public static func attributes(_ appUserID: String) -> String { APIEndpoint.postAttributes.path(appUserID) }

    /// `GET`: the offerings to show a customer (public key).
    public static func subscriberOfferings(_ appUserID: String) -> String {
        APIEndpoint.getSubscriberOfferings.path(appUserID)
    }

    /// `POST`: a `test` event to one endpoint (secret key).
    public static func webhookTest(_ endpointID: String) -> String { APIEndpoint.postWebhookTest.path(endpointID) }

    /// `POST`: deliver an event again (secret key).
    public static func redeliver(_ deliveryID: Int64) -> String {
        APIEndpoint.postRedeliver.path(String(deliveryID))
    }

    /// `value` as one path segment or query value: everything but unreserved characters percent-encoded.
    public static func segment(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? value
    }

    static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
