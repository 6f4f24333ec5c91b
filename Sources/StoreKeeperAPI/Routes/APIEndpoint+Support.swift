/// The routes of the support desk: finding a customer from what a ticket holds.
extension APIEndpoint {
    /// `GET /v1/search?q=`: the customers a piece of text names (an id, an alias, an order id, an email).
    public static let getSearch = APIEndpoint(
        .get, "v1/search", .secretKey(.read),
        APIOperation(
            "The project's customers a piece of text names, best match first, at most 20: an app user id or alias (exactly, then by prefix), an original transaction id, the $email attribute; when nothing stored matches, an Apple order id (Look Up Order ID) or transaction id (Get Transaction Info), asked of Apple for each app of the project and verified",
            parameters: [
                .query(
                    "q", .string(maxLength: 256, minLength: 3),
                    "What the ticket holds: an id, an alias, an order id, an email", required: true)
            ],
            answer: APIOperation.json(.type(SearchResponse.self)), errors: ["400", "401", "403", "429", "5XX"]))
    /// `POST /v1/subscribers/{app_user_id}/entitlements/{entitlement}/grants`: give a customer an entitlement without a
    /// purchase.
    public static let postGrant = APIEndpoint(
        .post, "v1/subscribers/\(.appUserID)/entitlements/\(.entitlement)/grants", .secretKey(.support),
        APIOperation(
            "Give a customer an entitlement without a purchase, for a duration (P3D, P1W, P1M, P3M, P6M, P1Y, lifetime) or until a date; the customer is created when unknown. Never revenue: announced as entitlement_granted",
            body: .type(GrantPost.self), status: 201,
            answer: APIOperation.json(.type(Grant.self)), errors: ["400", "401", "403", "413", "5XX"]))
    /// `DELETE /v1/subscribers/{app_user_id}/entitlements/{entitlement}/grants`: revoke the customer's grants of it in force.
    public static let deleteGrant = APIEndpoint(
        .delete, "v1/subscribers/\(.appUserID)/entitlements/\(.entitlement)/grants", .secretKey(.support),
        APIOperation(
            "Revoke the customer's grants of an entitlement that are in force (purchases are untouched). Announced as entitlement_revoked",
            answer: APIOperation.json(.type(GrantRevocationResponse.self)),
            errors: ["400", "401", "403", "404", "5XX"]))
    /// `GET /v1/subscribers/{app_user_id}/export`: everything the project holds about a customer (a data access request).
    public static let getExport = APIEndpoint(
        .get, "v1/subscribers/\(.appUserID)/export", .secretKey(.support),
        APIOperation(
            "Everything the project holds about a customer, for a data access request: the subscriber as the engine reads it now, every attribute (personal ones included), every event and the raw evidence (receipts, signed transactions, Apple's notifications) they came from",
            answer: APIOperation.json(.type(SubscriberExport.self)),
            errors: ["400", "401", "403", "404", "5XX"]))
    /// `DELETE /v1/subscribers/{app_user_id}`: erase a customer (a request to be forgotten).
    public static let deleteSubscriber = APIEndpoint(
        .delete, "v1/subscribers/\(.appUserID)", .secretKey(.support),
        APIOperation(
            "Erase a customer in one transaction: the subscriber, its aliases, evidence, events, attributes, webhook events and deliveries, enrolments, metric contributions, retention answers and Apple's notifications about its subscriptions. Afterwards the id answers as one never seen; only the metric rollups' anonymous sums keep what it counted for",
            answer: APIOperation.json(.type(ErasureResponse.self)),
            errors: ["400", "401", "403", "404", "5XX"]))
    /// `GET /v1/audit?after=&limit=`: a page of the project's audit log.
    public static let getAudit = APIEndpoint(
        .get, "v1/audit", .secretKey(.admin),
        APIOperation(
            "A page of the project's audit log, oldest first: every change made with a secret key or through the dashboard, with who (a fingerprint of the key), from where, the route, the target (a customer hashed) and a summary",
            parameters: [.query("after", .string(maxLength: 19)), .query("limit", .integer(1, 1000))],
            answer: APIOperation.json(.type(AuditLogResponse.self)), errors: ["400", "401", "403", "5XX"]))

    /// `POST /v1/subscribers/{app_user_id}/subscriptions/{original_transaction_id}/extend`: Apple moves a
    /// subscription's renewal date (Extend a Subscription Renewal Date).
    public static let postExtension = APIEndpoint(
        .post, "v1/subscribers/\(.appUserID)/subscriptions/\(.originalTransactionID)/extend", .secretKey(.support),
        APIOperation(
            "Ask Apple to extend one of the customer's subscriptions by 1-90 days (Apple allows two extensions of a subscription in 365 days, checked first); Apple's signed statuses are then stored, so the customer's renewal date moves in this call. Announced as renewal_extended",
            body: .type(ExtensionPost.self), answer: APIOperation.json(.type(RenewalExtension.self)),
            errors: ["400", "401", "403", "404", "409", "413", "502", "504", "5XX"]))

    /// `POST /v1/subscribers/{app_user_id}/subscriptions/{original_transaction_id}/app-account-token`: Apple
    /// reassigns a purchase's app account token (Set App Account Token).
    public static let postAppAccountToken = APIEndpoint(
        .post, "v1/subscribers/\(.appUserID)/subscriptions/\(.originalTransactionID)/app-account-token",
        .secretKey(.support),
        APIOperation(
            "Ask Apple to set the app account token (a UUID) that every transaction of one of the customer's purchases, and its renewals, carries (Set App Account Token), when support moves the purchase to another account of the app; Apple's signed view of the purchase is then stored. Announced as app_account_token_set",
            body: .type(AppAccountTokenPost.self), answer: APIOperation.json(.type(AppAccountTokenChange.self)),
            errors: ["400", "401", "403", "404", "409", "413", "502", "504", "5XX"]))

    /// `POST /v1/extensions`: Apple extends every active subscriber of a product (its mass extension).
    public static let postMassExtension = APIEndpoint(
        .post, "v1/extensions", .secretKey(.support),
        APIOperation(
            "Ask Apple to extend the renewal date of every active subscriber of an auto-renewable product by 1-90 days, optionally in some storefronts only (Extend Subscription Renewal Dates for All Active Subscribers). Queued: poll GET /v1/extensions/{id}; each subscription extended arrives as Apple's RENEWAL_EXTENDED notification",
            body: .type(MassExtensionPost.self), status: 202, answer: APIOperation.json(.type(MassExtension.self)),
            errors: ["400", "401", "403", "409", "413", "429", "502", "504", "5XX"]))
    /// `GET /v1/extensions/{id}`: where Apple stands with a mass extension.
    public static let getMassExtension = APIEndpoint(
        .get, "v1/extensions/\(.massExtensionID)", .secretKey(.read),
        APIOperation(
            "A mass extension as Apple reports it now (Get Status of Subscription Renewal Date Extensions): complete or not, and how many subscriptions it extended and could not",
            answer: APIOperation.json(.type(MassExtension.self)),
            errors: ["400", "401", "403", "404", "409", "502", "504", "5XX"]))

    /// This feature's routes, in the order the OpenAPI document lists them.
    static let supportRoutes: [APIEndpoint] = [
        getSearch, postGrant, deleteGrant, postExtension, postAppAccountToken, postMassExtension, getMassExtension,
        getExport, deleteSubscriber, getAudit,
    ]
}
