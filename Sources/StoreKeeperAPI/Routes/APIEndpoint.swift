/// One `/v1` route, declared once in its feature's file (`Routes/APIEndpoint+<Feature>.swift`): its method, its path
/// with named, typed parameters, the key it takes and what it reads and answers (``APIOperation``). Everything else
/// reads this declaration: the server's router registers the path, the OpenAPI document's `paths` are generated from
/// it, ``APIPath`` (the SDK), the CLI and the lab build their calls' paths from it, and the cross-tenant and scope
/// specs call every route of ``all``. There is no other list of routes and no `"/v1…"` path written elsewhere.
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
    /// The path below the server's root, each parameter by its name in braces:
    /// `v1/subscribers/{app_user_id}/entitlements/{entitlement}/grants`.
    public let pattern: String
    /// The path's parameters, in order, with their types.
    public let pathParameters: [APIParameter]
    /// Who may call it.
    public let access: Access
    /// What it reads and answers, as the OpenAPI document says.
    public let operation: APIOperation

    /// Declares a route: `APIEndpoint(.get, "v1/subscribers/\(.appUserID)", .publicKey, APIOperation(…))`.
    public init(_ method: Method, _ path: APIPattern, _ access: Access, _ operation: APIOperation) {
        self.method = method
        self.pattern = path.text
        self.pathParameters = path.parameters
        self.access = access
        self.operation = operation
    }

    /// Routes are the same when their method and path are (a path is served once per method).
    public static func == (left: APIEndpoint, right: APIEndpoint) -> Bool {
        left.method == right.method && left.pattern == right.pattern
    }

    /// Hashes the method and path.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(method)
        hasher.combine(pattern)
    }

    /// The secret key's scope the route needs; `nil` when a public key (or Apple) may call it.
    public var scope: Scope? {
        guard case .secretKey(let scope) = access else { return nil }
        return scope
    }

    /// The path of a route without a parameter: `/v1/receipts`.
    public var path: String { "/" + pattern }

    /// The names of the path's parameters, in order: `["app_user_id", "entitlement"]`.
    public var parameters: [String] { pathParameters.map(\.name) }

    /// The path with `values` as its parameters in order, each percent-encoded as one segment:
    /// `/v1/subscribers/a%2Fb`. A parameter without a value is left as declared (`{app_user_id}`).
    public func path(_ values: String...) -> String { path(values) }

    /// The path with `values` as its parameters in order (see ``path(_:)-(String...)``).
    public func path(_ values: [String]) -> String {
        var values = values.makeIterator()
        let segments = pattern.split(separator: "/", omittingEmptySubsequences: false).map { segment in
            segment.hasPrefix("{") ? values.next().map(APIPath.segment) ?? String(segment) : String(segment)
        }
        return "/" + segments.joined(separator: "/")
    }

    /// `METHOD /pattern`.
    public var description: String { "\(method.rawValue) /\(pattern)" }

    /// Every `/v1` route: each feature's, in the order the OpenAPI document lists them.
    public static let all: [APIEndpoint] =
        evidenceRoutes + subscribersRoutes + webhooksRoutes + offeringsRoutes + experimentsRoutes + retentionRoutes
        + metricsRoutes + supportRoutes
}
