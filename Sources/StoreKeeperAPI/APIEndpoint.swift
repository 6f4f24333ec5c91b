/// One `/v1` route as a client calls it: its method, its path pattern and the key it takes. The server's router
/// registers exactly these patterns (each with what the OpenAPI document says about it, in the server's `APIRoute`),
/// and ``APIPath`` builds a call's path from the same pattern, so a client and the server cannot disagree on one.
public struct APIEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// The HTTP methods the API uses.
    public enum Method: String, Sendable, Hashable {
        /// `GET`.
        case get = "GET"
        /// `POST`.
        case post = "POST"
        /// `PUT`.
        case put = "PUT"
        /// `DELETE`.
        case delete = "DELETE"
    }

    /// Who may call a route.
    public enum Access: Sendable, Hashable {
        /// Apple (App Store Server Notifications): no key; the payload's signature or shared secret authenticates.
        case apple
        /// A public (SDK) or secret key of the app's project (a secret key of any scope).
        case publicKey
        /// A secret key of the app's project whose scope includes this one.
        case secretKey(Scope)
    }

    /// What a secret key may do, each scope including the ones before it: `read` < `support` < `admin`.
    public enum Scope: String, Sendable, Hashable, CaseIterable, Comparable {
        /// Metrics, lists, events, search and exports of the project's data.
        case read
        /// `read`, plus what support does for one customer: grants, extensions, app account tokens, erasure.
        case support
        /// Everything: offerings, targeting, experiments, rules, policies and webhooks too (a key configured
        /// without a scope).
        case admin

        /// The order of the scopes.
        public static func < (lhs: Scope, rhs: Scope) -> Bool { lhs.rank < rhs.rank }

        var rank: Int {
            switch self {
            case .read: 0
            case .support: 1
            case .admin: 2
            }
        }

        /// Whether a key of this scope may call a route that needs `needed`.
        public func includes(_ needed: Scope) -> Bool { self >= needed }
    }

    /// The HTTP method.
    public let method: Method
    /// The path pattern below the server's root, with `:id` for its first path parameter (an app user id, an
    /// endpoint or delivery id, an offering's or experiment's identifier, a metric's name) and `:name` for any
    /// other: `v1/subscribers/:id`, `v1/subscribers/:id/entitlements/:entitlement/grants`.
    public let pattern: String
    /// Who may call it.
    public let access: Access

    /// The secret key's scope the route needs; `nil` when a public key (or Apple) may call it.
    public var scope: Scope? {
        guard case .secretKey(let scope) = access else { return nil }
        return scope
    }

    /// The path of a route without a parameter: `/v1/receipts`.
    public var path: String { "/" + pattern }

    /// The names of the pattern's parameters, in order: `["id", "entitlement"]`.
    public var parameters: [String] {
        pattern.split(separator: "/").filter { $0.hasPrefix(":") }.map { String($0.dropFirst()) }
    }

    /// The path with `values` as the pattern's parameters in order, each percent-encoded as one segment:
    /// `/v1/subscribers/a%2Fb`. A parameter without a value is left as written.
    public func path(_ values: String...) -> String { path(values) }

    /// The path with `values` as the pattern's parameters in order (see ``path(_:)-(String...)``).
    public func path(_ values: [String]) -> String {
        var values = values.makeIterator()
        let segments = pattern.split(separator: "/", omittingEmptySubsequences: false).map { segment in
            segment.hasPrefix(":") ? values.next().map(APIPath.segment) ?? String(segment) : String(segment)
        }
        return "/" + segments.joined(separator: "/")
    }

    /// `METHOD /pattern`.
    public var description: String { "\(method.rawValue) /\(pattern)" }

    // MARK: Evidence: receipts, signed transactions, Apple's notifications, imports and offer signatures.

    /// `POST /v1/receipts`: verify and store an app receipt.
    public static let postReceipt = APIEndpoint(method: .post, pattern: "v1/receipts", access: .publicKey)
    /// `POST /v1/transactions`: verify and store a StoreKit 2 signed transaction.
    public static let postTransaction = APIEndpoint(method: .post, pattern: "v1/transactions", access: .publicKey)
    /// `POST /v1/notifications/appstore`: App Store Server Notifications V1 and V2.
    public static let postNotification = APIEndpoint(
        method: .post, pattern: "v1/notifications/appstore", access: .apple)
    /// `POST /v1/imports`: bring in an existing customer by original transaction id or receipt.
    public static let postImport = APIEndpoint(method: .post, pattern: "v1/imports", access: .secretKey(.admin))
    /// `POST /v1/offers/sign`: a promotional offer signature.
    public static let postOfferSignature = APIEndpoint(
        method: .post, pattern: "v1/offers/sign", access: .secretKey(.admin))

    // MARK: One customer, and the project's list of them.

    /// `GET /v1/subscribers/{id}`: entitlements and subscriptions.
    public static let getSubscriber = APIEndpoint(method: .get, pattern: "v1/subscribers/:id", access: .publicKey)
    /// `GET /v1/subscribers/{id}/eligibility`: introductory offer eligibility.
    public static let getEligibility = APIEndpoint(
        method: .get, pattern: "v1/subscribers/:id/eligibility", access: .publicKey)
    /// `POST /v1/subscribers/{id}/alias`: merge identities.
    public static let postAlias = APIEndpoint(method: .post, pattern: "v1/subscribers/:id/alias", access: .publicKey)
    /// `GET /v1/subscribers/{id}/events`: a subscriber's history.
    public static let getEvents = APIEndpoint(
        method: .get, pattern: "v1/subscribers/:id/events", access: .secretKey(.read))
    /// `GET /v1/subscribers`: a page of the project's customers, filtered by where they stand.
    public static let getSubscribers = APIEndpoint(method: .get, pattern: "v1/subscribers", access: .secretKey(.read))
    /// `POST /v1/subscribers/{id}/attributes`: set or remove a customer's attributes.
    public static let postAttributes = APIEndpoint(
        method: .post, pattern: "v1/subscribers/:id/attributes", access: .publicKey)
    /// `DELETE /v1/subscribers/{id}/attributes`: remove every attribute of a customer (personal data).
    public static let deleteAttributes = APIEndpoint(
        method: .delete, pattern: "v1/subscribers/:id/attributes", access: .publicKey)

    // MARK: Webhook endpoints and their deliveries.

    /// `GET /v1/subscribers/{id}/webhook_deliveries`: the deliveries of the events about a subscriber.
    public static let getSubscriberDeliveries = APIEndpoint(
        method: .get, pattern: "v1/subscribers/:id/webhook_deliveries", access: .secretKey(.read))
    /// `POST /v1/webhooks`: a new webhook endpoint (its secret is in this answer only).
    public static let postWebhook = APIEndpoint(method: .post, pattern: "v1/webhooks", access: .secretKey(.admin))
    /// `GET /v1/webhooks`: the project's webhook endpoints.
    public static let getWebhooks = APIEndpoint(method: .get, pattern: "v1/webhooks", access: .secretKey(.read))
    /// `DELETE /v1/webhooks/{id}`: remove an endpoint.
    public static let deleteWebhook = APIEndpoint(
        method: .delete, pattern: "v1/webhooks/:id", access: .secretKey(.admin))
    /// `GET /v1/webhooks/{id}/deliveries`: an endpoint's delivery log.
    public static let getWebhookDeliveries = APIEndpoint(
        method: .get, pattern: "v1/webhooks/:id/deliveries", access: .secretKey(.read))
    /// `POST /v1/webhooks/{id}/test`: send a `test` event to one endpoint.
    public static let postWebhookTest = APIEndpoint(
        method: .post, pattern: "v1/webhooks/:id/test", access: .secretKey(.admin))
    /// `POST /v1/webhooks/deliveries/{id}/redeliver`: deliver an event again.
    public static let postRedeliver = APIEndpoint(
        method: .post, pattern: "v1/webhooks/deliveries/:id/redeliver", access: .secretKey(.admin))

    // MARK: Offerings and the targeting rules that choose among them.

    /// `POST /v1/offerings`: a new offering.
    public static let postOffering = APIEndpoint(method: .post, pattern: "v1/offerings", access: .secretKey(.admin))
    /// `GET /v1/offerings`: the project's offerings and its current one.
    public static let getOfferings = APIEndpoint(method: .get, pattern: "v1/offerings", access: .secretKey(.read))
    /// `PUT /v1/offerings/current`: which offering is current.
    public static let putCurrentOffering = APIEndpoint(
        method: .put, pattern: "v1/offerings/current", access: .secretKey(.admin))
    /// `GET /v1/offerings/{identifier}`: one offering.
    public static let getOffering = APIEndpoint(method: .get, pattern: "v1/offerings/:id", access: .secretKey(.read))
    /// `PUT /v1/offerings/{identifier}`: an offering's new content.
    public static let putOffering = APIEndpoint(method: .put, pattern: "v1/offerings/:id", access: .secretKey(.admin))
    /// `DELETE /v1/offerings/{identifier}`: remove an offering (not the current one).
    public static let deleteOffering = APIEndpoint(
        method: .delete, pattern: "v1/offerings/:id", access: .secretKey(.admin))
    /// `GET /v1/subscribers/{id}/offerings`: the offerings to show a customer.
    public static let getSubscriberOfferings = APIEndpoint(
        method: .get, pattern: "v1/subscribers/:id/offerings", access: .publicKey)
    /// `GET /v1/targeting`: the project's targeting rules.
    public static let getTargeting = APIEndpoint(method: .get, pattern: "v1/targeting", access: .secretKey(.read))
    /// `PUT /v1/targeting`: replace the project's targeting rules.
    public static let putTargeting = APIEndpoint(method: .put, pattern: "v1/targeting", access: .secretKey(.admin))

    // MARK: Experiments on offerings.

    /// `POST /v1/experiments`: a new experiment (a draft).
    public static let postExperiment = APIEndpoint(method: .post, pattern: "v1/experiments", access: .secretKey(.admin))
    /// `GET /v1/experiments`: the project's experiments.
    public static let getExperiments = APIEndpoint(method: .get, pattern: "v1/experiments", access: .secretKey(.read))
    /// `GET /v1/experiments/{identifier}`: one experiment.
    public static let getExperiment = APIEndpoint(
        method: .get, pattern: "v1/experiments/:id", access: .secretKey(.read))
    /// `POST /v1/experiments/{identifier}/start`: start enrolling.
    public static let startExperiment = APIEndpoint(
        method: .post, pattern: "v1/experiments/:id/start", access: .secretKey(.admin))
    /// `POST /v1/experiments/{identifier}/stop`: stop enrolling (results stay).
    public static let stopExperiment = APIEndpoint(
        method: .post, pattern: "v1/experiments/:id/stop", access: .secretKey(.admin))
    /// `GET /v1/experiments/{identifier}/results`: what each variant's customers did.
    public static let getExperimentResults = APIEndpoint(
        method: .get, pattern: "v1/experiments/:id/results", access: .secretKey(.read))

    // MARK: Retention Messaging: Apple's real-time request and the project's rules.

    /// `POST /v1/retention/appstore`: Apple's real-time Retention Messaging request (Apple signs it).
    public static let postRetentionRequest = APIEndpoint(
        method: .post, pattern: "v1/retention/appstore", access: .apple)
    /// `GET /v1/retention/rules`: the project's retention rules.
    public static let getRetentionRules = APIEndpoint(
        method: .get, pattern: "v1/retention/rules", access: .secretKey(.read))
    /// `PUT /v1/retention/rules`: replace the project's retention rules.
    public static let putRetentionRules = APIEndpoint(
        method: .put, pattern: "v1/retention/rules", access: .secretKey(.admin))

    // MARK: The project as a whole: its metrics and its event feed.

    /// `GET /v1/metrics/{name}`: a business metric over a date range (the path's `:id` is the metric's name).
    public static let getMetric = APIEndpoint(method: .get, pattern: "v1/metrics/:id", access: .secretKey(.read))
    /// `GET /v1/events`: the project's event feed, in commit order, resumable by cursor.
    public static let getEventFeed = APIEndpoint(method: .get, pattern: "v1/events", access: .secretKey(.read))

    // MARK: The support desk.

    /// `GET /v1/search?q=`: the customers a piece of text names (an id, an alias, an order id, an email).
    public static let getSearch = APIEndpoint(method: .get, pattern: "v1/search", access: .secretKey(.read))

    /// `POST /v1/subscribers/{id}/entitlements/{entitlement}/grants`: give a customer an entitlement without a
    /// purchase.
    public static let postGrant = APIEndpoint(
        method: .post, pattern: "v1/subscribers/:id/entitlements/:entitlement/grants", access: .secretKey(.support))

    /// `DELETE /v1/subscribers/{id}/entitlements/{entitlement}/grants`: revoke the customer's grants of it in force.
    public static let deleteGrant = APIEndpoint(
        method: .delete, pattern: "v1/subscribers/:id/entitlements/:entitlement/grants", access: .secretKey(.support))

    /// `GET /v1/subscribers/{id}/export`: everything the project holds about a customer (a data access request).
    public static let getExport = APIEndpoint(
        method: .get, pattern: "v1/subscribers/:id/export", access: .secretKey(.support))

    /// `DELETE /v1/subscribers/{id}`: erase a customer (a request to be forgotten).
    public static let deleteSubscriber = APIEndpoint(
        method: .delete, pattern: "v1/subscribers/:id", access: .secretKey(.support))

    /// `GET /v1/audit?after=&limit=`: a page of the project's audit log.
    public static let getAudit = APIEndpoint(method: .get, pattern: "v1/audit", access: .secretKey(.admin))

    /// Every `/v1` route.
    public static let all: [APIEndpoint] = [
        postReceipt, postTransaction, postNotification, postImport, postOfferSignature, getSubscriber, getEligibility,
        postAlias, getEvents, getSubscribers, postAttributes, deleteAttributes, getSubscriberDeliveries, postWebhook,
        getWebhooks, deleteWebhook, getWebhookDeliveries, postWebhookTest, postRedeliver, postOffering, getOfferings,
        putCurrentOffering, getOffering, putOffering, deleteOffering, getSubscriberOfferings, getTargeting,
        putTargeting, postExperiment, getExperiments, getExperiment, startExperiment, stopExperiment,
        getExperimentResults, postRetentionRequest, getRetentionRules, putRetentionRules, getMetric, getEventFeed,
        getSearch, postGrant, deleteGrant, getExport, deleteSubscriber, getAudit,
    ]
}
