/// The routes of Retention Messaging: Apple's real-time request and the project's rules.
extension APIEndpoint {
    /// `POST /v1/retention/appstore`: Apple's real-time Retention Messaging request (Apple signs it).
    public static let postRetentionRequest = APIEndpoint(
        .post, "v1/retention/appstore", .apple,
        APIOperation(
            "Apple's Get Retention Message request (RealtimeRequestBody, signed by Apple): answered with a RealtimeResponseBody, or 404 no_retention_message so Apple shows the default message",
            body: .object,
            answer: APIOperation.json(
                .properties(
                    [
                        "alternateProduct": .properties(["messageIdentifier": .text, "productId": .text]),
                        "message": .properties(["messageIdentifier": .text]),
                        "promotionalOffer": .properties([
                            "messageIdentifier": .text, "promotionalOfferSignatureV1": .object,
                            "promotionalOfferSignatureV2": .text,
                        ]),
                    ],
                    description: "Apple's RealtimeResponseBody: exactly one retention message (Apple's field names)")),
            errors: ["400", "401", "403", "404", "413", "422", "5XX"]))
    /// `GET /v1/retention/rules`: the project's retention rules.
    public static let getRetentionRules = APIEndpoint(
        .get, "v1/retention/rules", .secretKey(.read),
        APIOperation(
            "The project's Retention Messaging rules, in the order they are tried",
            answer: APIOperation.json(.type(RetentionRules.self)), errors: ["401", "403", "5XX"]))
    /// `PUT /v1/retention/rules`: replace the project's retention rules.
    public static let putRetentionRules = APIEndpoint(
        .put, "v1/retention/rules", .secretKey(.admin),
        APIOperation(
            "Replace the project's Retention Messaging rules: the first rule that matches the customer and may answer chooses what Apple shows",
            body: .type(RetentionRules.self), answer: APIOperation.json(.type(RetentionRules.self)),
            errors: ["400", "401", "403", "413", "5XX"]))

    /// This feature's routes, in the order the OpenAPI document lists them.
    static let retentionRoutes: [APIEndpoint] = [postRetentionRequest, getRetentionRules, putRetentionRules]
}
