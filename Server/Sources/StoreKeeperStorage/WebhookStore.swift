public import Foundation

/// The outbox's API: webhook endpoints, the delivery log, and leases for the workers that deliver.
public protocol WebhookStore: Sendable {
    /// Adds an endpoint.
    func createWebhookEndpoint(_ endpoint: WebhookEndpointRecord) async throws
    /// Makes the configured endpoints (ids starting `cfg_`) exactly `endpoints`: adds the new ones, updates the
    /// URL, types and secret of the others (keeping when they were created), and removes, with their pending
    /// deliveries, those no longer listed. Endpoints added through the API are left alone.
    func configureWebhookEndpoints(_ endpoints: [WebhookEndpointRecord]) async throws
    /// A project's endpoints, oldest first.
    func webhookEndpoints(projectID: String) async throws -> [WebhookEndpointRecord]
    /// Removes an endpoint of a project and its pending deliveries.
    /// - Returns: Whether it existed in that project.
    func deleteWebhookEndpoint(id: String, projectID: String) async throws -> Bool
    /// The delivery log of a project, newest first: of one endpoint and/or one subscriber (stored key), and in
    /// one status, when given.
    func webhookDeliveries(
        projectID: String, endpointID: String?, appUserKey: String?, status: DeliveryStatus?, limit: Int
    ) async throws -> [WebhookDeliveryRecord]
    /// Makes a delivery of the project pending again, due now.
    /// - Returns: Whether it exists in that project.
    func redeliver(deliveryID: Int64, projectID: String, now: Date) async throws -> Bool
    /// Stores an event for one endpoint only (a `test` event), with its pending delivery.
    func enqueue(_ event: OutboxEvent, endpointID: String, projectID: String, appUserKey: String, now: Date)
        async throws
    /// Takes up to `limit` due deliveries until `leaseUntil`, oldest due first, with at most `perEndpoint` leased
    /// at once for any one endpoint (those still leased from earlier count): none is taken by two workers while
    /// its lease holds, and one whose worker died is taken again once its lease ends.
    func leaseDeliveries(now: Date, leaseUntil: Date, limit: Int, perEndpoint: Int) async throws
        -> [LeasedDelivery]
    /// Records attempts of leased deliveries made at `now` and releases their leases, in one transaction.
    func recordAttempts(_ attempts: [DeliveryAttempt], now: Date) async throws
    /// How many `test` events were made for an endpoint at or after `since` (the rate limit of test events).
    func testEventCount(endpointID: String, since: Date) async throws -> Int
    /// How many deliveries are pending (the outbox's depth).
    func pendingDeliveryCount() async throws -> Int
}
