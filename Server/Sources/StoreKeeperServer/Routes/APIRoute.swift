public import HTTPTypes
public import StoreKeeperAPI

/// One `/v1` route as the server serves it: its declaration (``StoreKeeperAPI/APIEndpoint``, in the SDK's
/// `Routes/APIEndpoint+<Feature>.swift`) with the router's HTTP method. ``APIRoute/all`` is the whole API, one
/// route per declaration: the router registers exactly these routes (and nothing else under `/v1`), and the
/// document's `paths` are generated from them (``OpenAPIDocument``).
public struct APIRoute: Sendable, Hashable, CustomStringConvertible {
    /// Who may call a route.
    public typealias Access = APIEndpoint.Access

    /// The route's declaration: the SDK's ``APIPath`` builds paths from the same.
    public let endpoint: APIEndpoint
    /// What the OpenAPI document says about it.
    public var operation: APIOperation { endpoint.operation }
    /// The HTTP method.
    public let method: HTTPRequest.Method

    /// The path below the server's root, each parameter by name in braces (`v1/subscribers/{app_user_id}`).
    public var path: String { endpoint.pattern }
    /// Who may call it.
    public var access: Access { endpoint.access }

    /// The route `endpoint` declares.
    init(_ endpoint: APIEndpoint) {
        self.endpoint = endpoint
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

    /// Every `/v1` route, one per declaration (``StoreKeeperAPI/APIEndpoint/all``).
    public static let all: [APIRoute] = APIEndpoint.all.map(APIRoute.init)

    /// `METHOD /path`.
    public var description: String { endpoint.description }
}
