public import HTTPTypes

/// One `/v1` route: its method, path pattern, who may call it and what the OpenAPI document says about it.
/// ``APIRoute/all`` is the whole API: the router registers exactly these routes (and nothing else under `/v1`), and
/// the document's `paths` are generated from them (``OpenAPIDocument``), so a route is served and documented by one
/// declaration. The routes are declared by feature, in `APIRoute+<Feature>.swift`.
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
    /// What the OpenAPI document says about it.
    public let operation: APIOperation

    /// Declares a route.
    init(method: HTTPRequest.Method, path: String, access: Access, _ operation: APIOperation) {
        self.method = method
        self.path = path
        self.access = access
        self.operation = operation
    }

    /// Routes are the same when their method and path are (a path is served once per method).
    public static func == (left: APIRoute, right: APIRoute) -> Bool {
        left.method == right.method && left.path == right.path
    }

    /// Hashes the method and the path.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(method)
        hasher.combine(path)
    }

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
