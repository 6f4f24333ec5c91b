public import HTTPTypes

/// One `/v1` route: its method, path pattern and who may call it. ``APIRoute/all`` is the whole API: the router
/// registers exactly these routes (and nothing else under `/v1`), so a list of them is a list of the router's.
public struct APIRoute: Sendable, Hashable, CustomStringConvertible {
    /// Who may call a route.
    public enum Access: String, Sendable, Hashable {
        /// Apple (App Store Server Notifications): no key; the payload's signature or shared secret authenticates.
        case apple
        /// A public (SDK) or secret key of the app's project.
        case publicKey
        /// A secret key of the app's project.
        case secretKey
    }

    /// The HTTP method.
    public let method: HTTPRequest.Method
    /// The path pattern below the server's root, with `:id` for an app user id, an endpoint id, a delivery id or an offering's identifier (e.g. `v1/subscribers/:id`).
    public let path: String
    /// Who may call it.
    public let access: Access

    /// `POST /v1/receipts`: verify and store an app receipt.
    public static let postReceipt = APIRoute(method: .post, path: "v1/receipts", access: .publicKey)
    /// `POST /v1/transactions`: verify and store a StoreKit 2 signed transaction.
    public static let postTransaction = APIRoute(method: .post, path: "v1/transactions", access: .publicKey)
    /// `POST /v1/notifications/appstore`: App Store Server Notifications V1 and V2.
    public static let postNotification = APIRoute(method: .post, path: "v1/notifications/appstore", access: .apple)
    /// `GET /v1/subscribers/{id}`: entitlements and subscriptions.
    public static let getSubscriber = APIRoute(method: .get, path: "v1/subscribers/:id", access: .publicKey)
    /// `GET /v1/subscribers/{id}/eligibility`: introductory offer eligibility.
    public static let getEligibility = APIRoute(
        method: .get, path: "v1/subscribers/:id/eligibility", access: .publicKey)
    /// `POST /v1/subscribers/{id}/alias`: merge identities.
    public static let postAlias = APIRoute(method: .post, path: "v1/subscribers/:id/alias", access: .publicKey)
    /// `GET /v1/subscribers/{id}/events`: a subscriber's history.
    public static let getEvents = APIRoute(method: .get, path: "v1/subscribers/:id/events", access: .secretKey)
    /// `POST /v1/offers/sign`: a promotional offer signature.
    public static let postOfferSignature = APIRoute(method: .post, path: "v1/offers/sign", access: .secretKey)

    /// `GET /v1/subscribers/{id}/webhook_deliveries`: the deliveries of the events about a subscriber.
    public static let getSubscriberDeliveries = APIRoute(
        method: .get, path: "v1/subscribers/:id/webhook_deliveries", access: .secretKey)
    /// `POST /v1/webhooks`: a new webhook endpoint (its secret is in this answer only).
    public static let postWebhook = APIRoute(method: .post, path: "v1/webhooks", access: .secretKey)
    /// `GET /v1/webhooks`: the project's webhook endpoints.
    public static let getWebhooks = APIRoute(method: .get, path: "v1/webhooks", access: .secretKey)
    /// `DELETE /v1/webhooks/{id}`: remove an endpoint.
    public static let deleteWebhook = APIRoute(method: .delete, path: "v1/webhooks/:id", access: .secretKey)
    /// `GET /v1/webhooks/{id}/deliveries`: an endpoint's delivery log.
    public static let getWebhookDeliveries = APIRoute(
        method: .get, path: "v1/webhooks/:id/deliveries", access: .secretKey)
    /// `POST /v1/webhooks/{id}/test`: send a `test` event to one endpoint.
    public static let postWebhookTest = APIRoute(method: .post, path: "v1/webhooks/:id/test", access: .secretKey)
    /// `POST /v1/webhooks/deliveries/{id}/redeliver`: deliver an event again.
    public static let postRedeliver = APIRoute(
        method: .post, path: "v1/webhooks/deliveries/:id/redeliver", access: .secretKey)

    /// `POST /v1/imports`: bring in an existing customer by original transaction id or receipt.
    public static let postImport = APIRoute(method: .post, path: "v1/imports", access: .secretKey)

    /// `GET /v1/metrics/{name}`: a business metric over a date range (the path's `:id` is the metric's name).
    public static let getMetric = APIRoute(method: .get, path: "v1/metrics/:id", access: .secretKey)

    /// `GET /v1/subscribers`: a page of the project's customers, filtered by where they stand.
    public static let getSubscribers = APIRoute(method: .get, path: "v1/subscribers", access: .secretKey)

    /// `GET /v1/events`: the project's event feed, in commit order, resumable by cursor.
    public static let getEventFeed = APIRoute(method: .get, path: "v1/events", access: .secretKey)

    /// `POST /v1/offerings`: a new offering.
    public static let postOffering = APIRoute(method: .post, path: "v1/offerings", access: .secretKey)
    /// `GET /v1/offerings`: the project's offerings and its current one.
    public static let getOfferings = APIRoute(method: .get, path: "v1/offerings", access: .secretKey)
    /// `PUT /v1/offerings/current`: which offering is current.
    public static let putCurrentOffering = APIRoute(method: .put, path: "v1/offerings/current", access: .secretKey)
    /// `GET /v1/offerings/{identifier}`: one offering.
    public static let getOffering = APIRoute(method: .get, path: "v1/offerings/:id", access: .secretKey)
    /// `PUT /v1/offerings/{identifier}`: an offering's new content.
    public static let putOffering = APIRoute(method: .put, path: "v1/offerings/:id", access: .secretKey)
    /// `DELETE /v1/offerings/{identifier}`: remove an offering (not the current one).
    public static let deleteOffering = APIRoute(method: .delete, path: "v1/offerings/:id", access: .secretKey)
    /// `GET /v1/subscribers/{id}/offerings`: the offerings to show a customer.
    public static let getSubscriberOfferings = APIRoute(
        method: .get, path: "v1/subscribers/:id/offerings", access: .publicKey)

    /// `GET /v1/targeting`: the project's targeting rules.
    public static let getTargeting = APIRoute(method: .get, path: "v1/targeting", access: .secretKey)
    /// `PUT /v1/targeting`: replace the project's targeting rules.
    public static let putTargeting = APIRoute(method: .put, path: "v1/targeting", access: .secretKey)

    /// `POST /v1/experiments`: a new experiment (a draft).
    public static let postExperiment = APIRoute(method: .post, path: "v1/experiments", access: .secretKey)
    /// `GET /v1/experiments`: the project's experiments.
    public static let getExperiments = APIRoute(method: .get, path: "v1/experiments", access: .secretKey)
    /// `GET /v1/experiments/{identifier}`: one experiment.
    public static let getExperiment = APIRoute(method: .get, path: "v1/experiments/:id", access: .secretKey)
    /// `POST /v1/experiments/{identifier}/start`: start enrolling.
    public static let startExperiment = APIRoute(method: .post, path: "v1/experiments/:id/start", access: .secretKey)
    /// `POST /v1/experiments/{identifier}/stop`: stop enrolling (results stay).
    public static let stopExperiment = APIRoute(method: .post, path: "v1/experiments/:id/stop", access: .secretKey)
    /// `GET /v1/experiments/{identifier}/results`: what each variant's customers did.
    public static let getExperimentResults = APIRoute(
        method: .get, path: "v1/experiments/:id/results", access: .secretKey)

    /// `POST /v1/subscribers/{id}/attributes`: set or remove a customer's attributes.
    public static let postAttributes = APIRoute(
        method: .post, path: "v1/subscribers/:id/attributes", access: .publicKey)
    /// `DELETE /v1/subscribers/{id}/attributes`: remove every attribute of a customer (personal data).
    public static let deleteAttributes = APIRoute(
        method: .delete, path: "v1/subscribers/:id/attributes", access: .publicKey)

    /// `POST /v1/retention/appstore`: Apple's real-time Retention Messaging request (Apple signs it).
    public static let postRetentionRequest = APIRoute(method: .post, path: "v1/retention/appstore", access: .apple)
    /// `GET /v1/retention/rules`: the project's retention rules.
    public static let getRetentionRules = APIRoute(method: .get, path: "v1/retention/rules", access: .secretKey)
    /// `PUT /v1/retention/rules`: replace the project's retention rules.
    public static let putRetentionRules = APIRoute(method: .put, path: "v1/retention/rules", access: .secretKey)

    /// Every `/v1` route.
    public static let all: [APIRoute] = [
        postReceipt, postTransaction, postNotification, getSubscriber, getEligibility, postAlias, getEvents,
        postOfferSignature, getSubscriberDeliveries, postWebhook, getWebhooks, deleteWebhook, getWebhookDeliveries,
        postWebhookTest, postRedeliver, postImport, getMetric, getEventFeed,
        getSubscribers, postOffering, getOfferings, putCurrentOffering, getOffering, putOffering, deleteOffering,
        getSubscriberOfferings, getTargeting, putTargeting, postExperiment, getExperiments, getExperiment,
        startExperiment, stopExperiment, getExperimentResults, postAttributes, deleteAttributes,
        postRetentionRequest, getRetentionRules, putRetentionRules,
    ]

    /// `METHOD /path`.
    public var description: String { "\(method.rawValue) /\(path)" }
}
