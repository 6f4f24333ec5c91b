/// The routes of webhook endpoints and their deliveries.
extension APIRoute {
    /// `GET /v1/subscribers/{id}/webhook_deliveries`: the deliveries of the events about a subscriber.
    public static let getSubscriberDeliveries = APIRoute(
        .getSubscriberDeliveries,
        APIOperation(
            "The webhook deliveries of the events about a subscriber, newest first",
            parameters: [.appUserID, .deliveryStatus], answer: APIOperation.json(.named("WebhookDeliveriesResponse")),
            errors: ["400", "401", "403", "5XX"]))
    /// `POST /v1/webhooks`: a new webhook endpoint (its secret is in this answer only).
    public static let postWebhook = APIRoute(
        .postWebhook,
        APIOperation(
            "Add a webhook endpoint (its signing secret is in this answer only)", body: .named("WebhookEndpointPost"),
            status: 201, answer: APIOperation.json(.named("WebhookEndpoint")),
            errors: ["400", "401", "403", "409", "413", "5XX"]))
    /// `GET /v1/webhooks`: the project's webhook endpoints.
    public static let getWebhooks = APIRoute(
        .getWebhooks,
        APIOperation(
            "The project's webhook endpoints, without their secrets",
            answer: APIOperation.json(.named("WebhookEndpointsResponse")), errors: ["401", "403", "5XX"]))
    /// `DELETE /v1/webhooks/{id}`: remove an endpoint.
    public static let deleteWebhook = APIRoute(
        .deleteWebhook,
        APIOperation(
            "Remove a webhook endpoint and its pending deliveries", parameters: [.resourceID], status: 204,
            answer: [], errors: ["401", "403", "404", "409", "5XX"]))
    /// `GET /v1/webhooks/{id}/deliveries`: an endpoint's delivery log.
    public static let getWebhookDeliveries = APIRoute(
        .getWebhookDeliveries,
        APIOperation(
            "An endpoint's delivery log, newest first", parameters: [.resourceID, .deliveryStatus],
            answer: APIOperation.json(.named("WebhookDeliveriesResponse")),
            errors: ["400", "401", "403", "404", "5XX"]))
    /// `POST /v1/webhooks/{id}/test`: send a `test` event to one endpoint.
    public static let postWebhookTest = APIRoute(
        .postWebhookTest,
        APIOperation(
            "Send a test event to one endpoint", parameters: [.resourceID], status: 202,
            answer: APIOperation.json(.named("WebhookEvent")), errors: ["401", "403", "404", "429", "5XX"]))
    /// `POST /v1/webhooks/deliveries/{id}/redeliver`: deliver an event again.
    public static let postRedeliver = APIRoute(
        .postRedeliver,
        APIOperation(
            "Deliver an event to its endpoint again", parameters: [.resourceID], status: 202, answer: [],
            errors: ["401", "403", "404", "5XX"]))
}
