/// The routes of webhook endpoints and their deliveries.
extension APIEndpoint {
    /// `GET /v1/subscribers/{app_user_id}/webhook_deliveries`: the deliveries of the events about a subscriber.
    public static let getSubscriberDeliveries = APIEndpoint(
        .get, "v1/subscribers/\(.appUserID)/webhook_deliveries", .secretKey(.read),
        APIOperation(
            "The webhook deliveries of the events about a subscriber, newest first",
            parameters: [.deliveryStatus], answer: APIOperation.json(.type(WebhookDeliveriesResponse.self)),
            errors: ["400", "401", "403", "5XX"]))
    /// `POST /v1/webhooks`: a new webhook endpoint (its secret is in this answer only).
    public static let postWebhook = APIEndpoint(
        .post, "v1/webhooks", .secretKey(.admin),
        APIOperation(
            "Add a webhook endpoint (its signing secret is in this answer only)", body: .type(WebhookEndpointPost.self),
            status: 201, answer: APIOperation.json(.type(WebhookEndpoint.self)),
            errors: ["400", "401", "403", "409", "413", "5XX"]))
    /// `GET /v1/webhooks`: the project's webhook endpoints.
    public static let getWebhooks = APIEndpoint(
        .get, "v1/webhooks", .secretKey(.read),
        APIOperation(
            "The project's webhook endpoints, without their secrets",
            answer: APIOperation.json(.type(WebhookEndpointsResponse.self)), errors: ["401", "403", "5XX"]))
    /// `DELETE /v1/webhooks/{id}`: remove an endpoint.
    public static let deleteWebhook = APIEndpoint(
        .delete, "v1/webhooks/\(.resourceID)", .secretKey(.admin),
        APIOperation(
            "Remove a webhook endpoint and its pending deliveries", status: 204,
            answer: [], errors: ["401", "403", "404", "409", "5XX"]))
    /// `GET /v1/webhooks/{id}/deliveries`: an endpoint's delivery log.
    public static let getWebhookDeliveries = APIEndpoint(
        .get, "v1/webhooks/\(.resourceID)/deliveries", .secretKey(.read),
        APIOperation(
            "An endpoint's delivery log, newest first", parameters: [.deliveryStatus],
            answer: APIOperation.json(.type(WebhookDeliveriesResponse.self)),
            errors: ["400", "401", "403", "404", "5XX"]))
    /// `POST /v1/webhooks/{id}/test`: send a `test` event to one endpoint.
    public static let postWebhookTest = APIEndpoint(
        .post, "v1/webhooks/\(.resourceID)/test", .secretKey(.admin),
        APIOperation(
            "Send a test event to one endpoint", status: 202,
            answer: APIOperation.json(.type(WebhookEvent.self)), errors: ["401", "403", "404", "429", "5XX"]))
    /// `POST /v1/webhooks/deliveries/{id}/redeliver`: deliver an event again.
    public static let postRedeliver = APIEndpoint(
        .post, "v1/webhooks/deliveries/\(.resourceID)/redeliver", .secretKey(.admin),
        APIOperation(
            "Deliver an event to its endpoint again", status: 202, answer: [],
            errors: ["401", "403", "404", "5XX"]))

    /// This feature's routes, in the order the OpenAPI document lists them.
    static let webhooksRoutes: [APIEndpoint] = [
        getSubscriberDeliveries, postWebhook, getWebhooks, deleteWebhook, getWebhookDeliveries, postWebhookTest,
        postRedeliver,
    ]
}
