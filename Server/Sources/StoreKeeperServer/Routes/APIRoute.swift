public import HTTPTypes
public import StoreKeeperAPI

/// One `/v1` route: its method, path pattern, who may call it and what the OpenAPI document says about it.
/// ``APIRoute/all`` is the whole API: the router registers exactly these routes (and nothing else under `/v1`), and
/// the document's `paths` are generated from them (``OpenAPIDocument``), so a route is served and documented by one
/// declaration. The routes are declared by feature, in `APIRoute+<Feature>.swift`.
public struct APIRoute: Sendable, Hashable, CustomStringConvertible {
    /// Who may call a route.
    public typealias Access = APIEndpoint.Access

    /// The route as clients call it (method, pattern, access): the SDK's ``APIPath`` builds paths from the same.
    public let endpoint: APIEndpoint
    /// What the OpenAPI document says about it.
    public let operation: APIOperation
    /// The HTTP method.
    public let method: HTTPRequest.Method

    /// The path pattern below the server's root, with `:id` for its one path parameter (e.g. `v1/subscribers/:id`).
    public var path: String { endpoint.pattern }
    /// Who may call it.
    public var access: Access { endpoint.access }

    /// Declares the route of `endpoint`, documented by `operation`.
    init(_ endpoint: APIEndpoint, _ operation: APIOperation) {
        self.endpoint = endpoint
        self.operation = operation
        self.method =
            switch endpoint.method {
            case .get: .get
            case .post: .post
            case .put: .put
            case .delete: .delete
            }
    }

    /// Routes are the same when their endpoints are (a path is served once per method).
    public static func == (left: APIRoute, right: APIRoute) -> Bool { left.endpoint == right.endpoint }

    /// Hashes the endpoint.
    public func hash(into hasher: inout Hasher) { hasher.combine(endpoint) }

    /// Every `/v1` route.
    public static let all: [APIRoute] = [
        postReceipt, postTransaction, postNotification, getSubscriber, getEligibility, postAlias, getEvents,
        postOfferSignature, getSubscriberDeliveries, postWebhook, getWebhooks, deleteWebhook, getWebhookDeliveries,
        postWebhookTest, postRedeliver, postImport, getMetric, getEventFeed,
        getSubscribers, postOffering, getOfferings, putCurrentOffering, getOffering, putOffering, deleteOffering,
        getSubscriberOfferings, getTargeting, putTargeting, postExperiment, getExperiments, getExperiment,
        startExperiment, stopExperiment, getExperimentResults, postAttributes, deleteAttributes,
        postRetentionRequest, getRetentionRules, putRetentionRules, getSearch, postGrant, deleteGrant, getExport,
        deleteSubscriber, getAudit,
    ]

    /// `METHOD /path`.
    public var description: String { endpoint.description }
}
