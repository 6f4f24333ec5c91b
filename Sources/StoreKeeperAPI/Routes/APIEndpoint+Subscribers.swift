/// The routes about one customer or the project's list of them.
extension APIEndpoint {
    /// `GET /v1/subscribers/{app_user_id}`: entitlements and subscriptions.
    public static let getSubscriber = APIEndpoint(
        .get, "v1/subscribers/\(.appUserID)", .publicKey,
        APIOperation(
            "A subscriber's entitlements, subscriptions and purchases",
            answer: APIOperation.json(.type(SubscriberResponse.self)), errors: ["400", "401", "403", "404", "5XX"]))
    /// `GET /v1/subscribers/{app_user_id}/eligibility`: introductory offer eligibility.
    public static let getEligibility = APIEndpoint(
        .get, "v1/subscribers/\(.appUserID)/eligibility", .publicKey,
        APIOperation(
            "Intro-offer eligibility per product",
            parameters: [.query("product_ids", .string(minLength: 1), required: true)],
            answer: APIOperation.json(.type(EligibilityResponse.self)), errors: ["400", "401", "403", "5XX"]))
    /// `POST /v1/subscribers/{app_user_id}/alias`: merge identities.
    public static let postAlias = APIEndpoint(
        .post, "v1/subscribers/\(.appUserID)/alias", .publicKey,
        APIOperation(
            "Merge another app user id into this one", body: .type(AliasPost.self),
            answer: APIOperation.json(.type(SubscriberResponse.self)), errors: ["400", "401", "403", "413", "5XX"]))
    /// `GET /v1/subscribers/{app_user_id}/events`: a subscriber's history.
    public static let getEvents = APIEndpoint(
        .get, "v1/subscribers/\(.appUserID)/events", .secretKey(.read),
        APIOperation(
            "A subscriber's history with causes", answer: APIOperation.json(.type(EventsResponse.self)),
            errors: ["400", "401", "403", "5XX"]))
    /// `GET /v1/subscribers`: a page of the project's customers, filtered by where they stand.
    public static let getSubscribers = APIEndpoint(
        .get, "v1/subscribers", .secretKey(.read),
        APIOperation(
            "A page of the project's customers, filtered by where they stand now",
            parameters: [
                .query("status", .oneOf(["active", "trial", "grace", "billing_retry", "expired", "revoked", "none"])),
                .query("product_id", .string(maxLength: 256)), .query("entitlement", .string(maxLength: 256)),
                .query("storefront", .string(maxLength: 16)),
                .query("environment", .oneOf(["Production", "Sandbox", "Xcode"])),
                .query("cursor", .string(maxLength: 256, minLength: 1)), .query("limit", .integer(1, 1000)),
                .query("format", .oneOf(["json", "csv"])),
                .query(
                    "attribute", .string(maxLength: 600),
                    "name:value \u{2014} customers holding this attribute with exactly this value"),
                .query(
                    "attribute_source", .oneOf(["server", "client", "any"]),
                    "who set the attribute: the backend (server, the default), the app (client) or either (any)"),
            ],
            answer: [("application/json", .type(SubscriberListResponse.self)), ("text/csv", .text)],
            errors: ["400", "401", "403", "5XX"]))
    /// `POST /v1/subscribers/{app_user_id}/attributes`: set or remove a customer's attributes.
    public static let postAttributes = APIEndpoint(
        .post, "v1/subscribers/\(.appUserID)/attributes", .publicKey,
        APIOperation(
            "Set (a string) or remove (null) a customer's attributes", body: .type(AttributesPost.self),
            answer: APIOperation.json(.type(AttributesResponse.self)),
            errors: ["400", "401", "403", "409", "413", "5XX"]))
    /// `DELETE /v1/subscribers/{app_user_id}/attributes`: remove every attribute of a customer (personal data).
    public static let deleteAttributes = APIEndpoint(
        .delete, "v1/subscribers/\(.appUserID)/attributes", .publicKey,
        APIOperation(
            "Remove every attribute of a customer (personal data)", status: 204,
            answer: [], errors: ["400", "401", "403", "5XX"]))

    /// This feature's routes, in the order the OpenAPI document lists them.
    static let subscribersRoutes: [APIEndpoint] = [
        getSubscriber, getEligibility, postAlias, getEvents, getSubscribers, postAttributes, deleteAttributes,
    ]
}
