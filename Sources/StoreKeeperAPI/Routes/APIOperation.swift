/// What one route reads and answers, as the OpenAPI document says: its summary, query parameters, body, answer and
/// the error statuses it may give. Each ``APIEndpoint`` declares its operation beside its path, so the server's
/// document is generated from the declarations.
public struct APIOperation: Sendable {
    /// One line saying what the route does.
    public let summary: String
    /// Its query parameters, in the document's order (the path's are the route's ``APIEndpoint/pathParameters``).
    public let parameters: [APIParameter]
    /// The request body's schema (always JSON, always required), if it takes one.
    public let body: APISchema?
    /// The success status (`200`, `201`, `202`, `204`).
    public let status: Int
    /// The success answer's media types and schemas (empty: no body).
    public let answer: [(mediaType: String, schema: APISchema)]
    /// The error statuses it documents, each answered with an `ErrorBody` (`"5XX"` for the server's own).
    public let errors: [String]

    /// Makes an operation's description.
    public init(
        _ summary: String, parameters: [APIParameter] = [], body: APISchema? = nil, status: Int = 200,
        answer: [(mediaType: String, schema: APISchema)], errors: [String]
    ) {
        self.summary = summary
        self.parameters = parameters
        self.body = body
        self.status = status
        self.answer = answer
        self.errors = errors
    }

    /// The usual answer: one JSON body of `schema`.
    public static func json(_ schema: APISchema) -> [(mediaType: String, schema: APISchema)] {
        [("application/json", schema)]
    }

    /// The words the document gives each success status.
    public var statusDescription: String {
        switch status {
        case 201: "Created"
        case 202: "Queued"
        case 204: "Removed"
        default: "OK"
        }
    }
}

/// One path or query parameter of a route.
public struct APIParameter: Sendable {
    /// Where the parameter goes.
    public enum Location: String, Sendable {
        /// A segment of the path (always required).
        case path
        /// A query item.
        case query
    }

    /// Its name on the wire.
    public let name: String
    /// Path or query.
    public let location: Location
    /// Whether a call must give it.
    public let required: Bool
    /// What it means, if the name does not say.
    public let description: String?
    /// Its values.
    public let schema: APISchema

    /// A path segment.
    public static func path(_ name: String, _ schema: APISchema, _ description: String? = nil) -> APIParameter {
        APIParameter(name: name, location: .path, required: true, description: description, schema: schema)
    }

    /// A query item (optional unless `required`).
    public static func query(
        _ name: String, _ schema: APISchema, _ description: String? = nil, required: Bool = false
    ) -> APIParameter {
        APIParameter(name: name, location: .query, required: required, description: description, schema: schema)
    }

    /// The app user id in a subscriber's path.
    public static let appUserID = path("app_user_id", .string(maxLength: 256, minLength: 1))
    /// An entitlement's identifier in the product catalog (`pro`).
    public static let entitlement = path("entitlement", .string(maxLength: 256, minLength: 1))
    /// A subscription's original transaction id (Apple's, digits).
    public static let originalTransactionID = path("original_transaction_id", .string(maxLength: 64, minLength: 1))
    /// A mass extension's id (a UUID).
    public static let massExtensionID = path(
        "id", .string(maxLength: 36, minLength: 36), "The request's id, as POST /v1/extensions answered it")
    /// A metric's name (its schema, the metrics the server computes, is the component `MetricName`).
    public static let metricName = path("name", .named("MetricName"))
    /// A webhook endpoint's or a delivery's id.
    public static let resourceID = path("id", .string(maxLength: 256, minLength: 1))
    /// An offering's identifier.
    public static let offeringID = path("id", .string(maxLength: 100, minLength: 1), "The offering's identifier")
    /// An experiment's identifier.
    public static let experimentID = path(
        "id", .string(maxLength: 100, minLength: 1), "The experiment's identifier")
    /// A delivery log's filter by status.
    public static let deliveryStatus = query("status", .oneOf(["pending", "delivered", "failed"]))
}
