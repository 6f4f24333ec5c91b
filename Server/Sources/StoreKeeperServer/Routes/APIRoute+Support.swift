/// The routes of the support desk: finding a customer from what a ticket holds.
extension APIRoute {
    /// `GET /v1/search?q=`: the customers a piece of text names.
    public static let getSearch = APIRoute(
        .getSearch,
        APIOperation(
            "The project's customers a piece of text names, best match first, at most 20: an app user id or alias (exactly, then by prefix), an original transaction id, the $email attribute; when nothing stored matches, an Apple order id (Look Up Order ID) or transaction id (Get Transaction Info), asked of Apple for each app of the project and verified",
            parameters: [
                .query(
                    "q", .string(maxLength: 256, minLength: 3),
                    "What the ticket holds: an id, an alias, an order id, an email", required: true)
            ],
            answer: APIOperation.json(.named("SearchResponse")), errors: ["400", "401", "403", "429", "5XX"]))
    /// `POST /v1/subscribers/{id}/entitlements/{entitlement}/grants`: access without a purchase.
    public static let postGrant = APIRoute(
        .postGrant,
        APIOperation(
            "Give a customer an entitlement without a purchase, for a duration (P3D, P1W, P1M, P3M, P6M, P1Y, lifetime) or until a date; the customer is created when unknown. Never revenue: announced as entitlement_granted",
            parameters: [.appUserID, .entitlement], body: .named("GrantPost"), status: 201,
            answer: APIOperation.json(.named("Grant")), errors: ["400", "401", "403", "413", "5XX"]))
    /// `DELETE /v1/subscribers/{id}/entitlements/{entitlement}/grants`: take back what support gave.
    public static let deleteGrant = APIRoute(
        .deleteGrant,
        APIOperation(
            "Revoke the customer's grants of an entitlement that are in force (purchases are untouched). Announced as entitlement_revoked",
            parameters: [.appUserID, .entitlement], answer: APIOperation.json(.named("GrantRevocationResponse")),
            errors: ["400", "401", "403", "404", "5XX"]))
    /// `GET /v1/subscribers/{id}/export`: a data access request answered.
    public static let getExport = APIRoute(
        .getExport,
        APIOperation(
            "Everything the project holds about a customer, for a data access request: the subscriber as the engine reads it now, every attribute (personal ones included), every event and the raw evidence (receipts, signed transactions, Apple's notifications) they came from",
            parameters: [.appUserID], answer: APIOperation.json(.named("SubscriberExport")),
            errors: ["400", "401", "403", "404", "5XX"]))
    /// `DELETE /v1/subscribers/{id}`: a request to be forgotten answered.
    public static let deleteSubscriber = APIRoute(
        .deleteSubscriber,
        APIOperation(
            "Erase a customer in one transaction: the subscriber, its aliases, evidence, events, attributes, webhook events and deliveries, enrolments, metric contributions, retention answers and Apple's notifications about its subscriptions. Afterwards the id answers as one never seen; only the metric rollups' anonymous sums keep what it counted for",
            parameters: [.appUserID], answer: APIOperation.json(.named("ErasureResponse")),
            errors: ["400", "401", "403", "404", "5XX"]))
    /// `GET /v1/audit`: who changed what.
    public static let getAudit = APIRoute(
        .getAudit,
        APIOperation(
            "A page of the project's audit log, oldest first: every change made with a secret key or through the dashboard, with who (a fingerprint of the key), from where, the route, the target (a customer hashed) and a summary",
            parameters: [.query("after", .string(maxLength: 19)), .query("limit", .integer(1, 1000))],
            answer: APIOperation.json(.named("AuditLogResponse")), errors: ["400", "401", "403", "5XX"]))
}
