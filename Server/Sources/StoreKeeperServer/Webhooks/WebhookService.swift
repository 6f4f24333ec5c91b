import Crypto
import Foundation
import StoreKeeperAPI
import StoreKeeperStorage
import StoreKeeperWire
import SubscriptionEngine

/// The webhook API apart from HTTP: endpoints of the caller's project, their delivery logs, redelivery and test
/// events. Every call acts inside the caller's project only.
struct WebhookService: Sendable {
    /// The endpoints, their delivery logs and the test events.
    let webhooks: any WebhookStore
    /// Where a test event's subscriber is read.
    let store: any EvidenceStore
    let apps: AppDirectory
    let now: @Sendable () -> Date
    /// The most `test` events one endpoint may be sent in a minute.
    var testsPerMinute = 10

    /// The most endpoints one project may have.
    static let maximumEndpoints = 20
    /// The most deliveries one log answer lists.
    static let logLimit = 500

    /// `POST /v1/webhooks`.
    func create(_ body: WebhookEndpointPost, bundleID: String) async throws -> WebhookEndpoint {
        let project = try apps.project(bundleID)
        let url = try Self.checkedURL(body.url)
        let types = try Self.checkedTypes(body.eventTypes ?? [])
        guard try await webhooks.webhookEndpoints(projectID: project.id).count < Self.maximumEndpoints else {
            throw ServiceError(.conflict, .tooManyWebhooks, "a project has at most \(Self.maximumEndpoints) endpoints")
        }
        let record = WebhookEndpointRecord(
            id: "wh_" + Self.randomHex(12), projectID: project.id, url: url, eventTypes: types,
            secret: Self.newSecret(), createdAt: now())
        try await webhooks.createWebhookEndpoint(record)
        return WebhookEndpoint(
            id: record.id, url: record.url, eventTypes: record.eventTypes, createdAt: record.createdAt,
            secret: record.secret)
    }

    /// `GET /v1/webhooks`: without secrets.
    func list(bundleID: String) async throws -> WebhookEndpointsResponse {
        let project = try apps.project(bundleID)
        return WebhookEndpointsResponse(
            endpoints: try await webhooks.webhookEndpoints(projectID: project.id).map {
                WebhookEndpoint(id: $0.id, url: $0.url, eventTypes: $0.eventTypes, createdAt: $0.createdAt, secret: nil)
            })
    }

    /// `DELETE /v1/webhooks/{id}`.
    func delete(id: String, bundleID: String) async throws {
        if id.hasPrefix("cfg_"),
            try await webhooks.webhookEndpoints(projectID: try apps.project(bundleID).id).contains(where: {
                $0.id == id
            })
        {
            throw ServiceError(
                .conflict, .webhookConfigured,
                "webhook endpoint \(id) is kept in the configuration file; remove it there and restart")
        }
        guard try await webhooks.deleteWebhookEndpoint(id: id, projectID: try apps.project(bundleID).id) else {
            throw Self.endpointNotFound(id)
        }
    }

    /// `GET /v1/webhooks/{id}/deliveries?status=`.
    func deliveries(endpointID: String, status: String?, bundleID: String) async throws -> WebhookDeliveriesResponse {
        let project = try apps.project(bundleID)
        guard try await webhooks.webhookEndpoints(projectID: project.id).contains(where: { $0.id == endpointID }) else {
            throw Self.endpointNotFound(endpointID)
        }
        return try await log(project: project, endpointID: endpointID, appUserKey: nil, status: status)
    }

    /// `GET /v1/subscribers/{id}/webhook_deliveries?status=`: the deliveries of the events about a subscriber.
    func deliveries(appUserID: String, status: String?, bundleID: String) async throws -> WebhookDeliveriesResponse {
        let appUserID = try CustomerID.normalized(appUserID)
        let project = try apps.project(bundleID)
        let record = try await store.snapshot(appUserID, in: project)
        return try await log(
            project: project, endpointID: nil, appUserKey: record?.storageKey ?? project.key(appUserID),
            status: status)
    }

    func log(project: ProjectScope, endpointID: String?, appUserKey: String?, status: String?) async throws
        -> WebhookDeliveriesResponse
    {
        var filter: DeliveryStatus?
        if let status {
            guard let known = DeliveryStatus(rawValue: status) else {
                throw ServiceError.invalid(
                    .invalidStatus,
                    "status is \"\(status.prefix(40))\"; it must be pending, delivered or failed")
            }
            filter = known
        }
        return WebhookDeliveriesResponse(
            deliveries: try await webhooks.webhookDeliveries(
                projectID: project.id, endpointID: endpointID, appUserKey: appUserKey, status: filter,
                limit: Self.logLimit
            ).map { record in
                WebhookDelivery(
                    id: record.id, eventID: record.eventID, eventType: record.eventType, endpointID: record.endpointID,
                    appUserID: record.appUserID, status: record.status.rawValue, attempts: record.attempts,
                    nextAttemptAt: record.nextAttemptAt, lastAttemptAt: record.lastAttemptAt,
                    lastResult: record.lastResult, deliveredAt: record.deliveredAt)
            })
    }

    /// `POST /v1/webhooks/deliveries/{id}/redeliver`.
    func redeliver(deliveryID raw: String, bundleID: String) async throws {
        let project = try apps.project(bundleID)
        guard let id = Int64(raw), id > 0,
            try await webhooks.redeliver(deliveryID: id, projectID: project.id, now: now())
        else {
            throw ServiceError(
                .notFound, .deliveryNotFound,
                "no webhook delivery \"\(raw.prefix(40))\" in this project")
        }
    }

    /// `POST /v1/webhooks/{id}/test`: a `test` event about a subscriber named `storekeeper_test`, to that
    /// endpoint only; at most ``testsPerMinute`` in a minute (429 `rate_limited` past it: a flood of test events
    /// to a receiver that never answers would only fill its own queue, but the outbox is shared).
    func test(endpointID: String, bundleID: String) async throws -> WebhookEvent {
        let project = try apps.project(bundleID)
        guard try await webhooks.webhookEndpoints(projectID: project.id).contains(where: { $0.id == endpointID }) else {
            throw Self.endpointNotFound(endpointID)
        }
        let instant = now()
        guard try await webhooks.testEventCount(endpointID: endpointID, since: instant - 60) < testsPerMinute else {
            var error = ServiceError(
                .rateLimited, .rateLimited,
                "webhook endpoint \(endpointID) was sent \(testsPerMinute) test events in the last minute; try again later"
            )
            error.retryAfter = 60
            throw error
        }
        let user = "storekeeper_test"
        let event = WebhookEvent(
            id: UUID().uuidString.lowercased(), type: ChangeKind.test.rawValue, createdAt: instant, environment: nil,
            app: bundleID, appUserID: user, aliases: [], originalTransactionID: nil, transactionID: nil,
            productID: "", entitlements: [], periodType: nil, purchasedAt: nil, expiresAt: nil, price: nil,
            currency: nil, storeTimestamp: nil, cause: "test",
            subscriber: Subscriber(
                appUserID: user, aliases: [], firstSeen: nil, entitlements: [], subscriptions: [], nonSubscriptions: [],
                introEligibility: [:]))
        try await webhooks.enqueue(
            OutboxEvent(
                id: event.id, type: event.type,
                body: String(decoding: try WebhookAnnouncer.encoder.encode(event), as: UTF8.self)),
            endpointID: endpointID, projectID: project.id, appUserKey: project.key(user), now: instant)
        return event
    }

    static func endpointNotFound(_ id: String) -> ServiceError {
        ServiceError(
            .notFound, .webhookNotFound, "no webhook endpoint \"\(id.prefix(40))\" in this project"
        )
    }

    /// A URL deliveries can go to: read as each delivery reads it (``WebhookURL``: absolute `http` or `https`,
    /// a host, a port from 1 to 65535), with a host that is not a refused address (``WebhookTarget``), at most
    /// 2,048 bytes. One rule: a URL accepted here is one a delivery can be made to.
    static func checkedURL(_ raw: String) throws -> String {
        guard raw.utf8.count <= 2_048, let url = WebhookURL(raw), URL(string: raw) != nil,
            !raw.contains(where: { $0.isWhitespace || $0.isNewline })
        else {
            throw ServiceError.invalid(
                .invalidURL, "url must be an absolute http or https URL with a host and a port from 1 to 65535")
        }
        if let refusal = WebhookTarget.refusal(literal: url.host) {
            throw ServiceError.invalid(
                .invalidURL, "url names \(refusal): webhooks are never sent there")
        }
        return raw
    }

    /// Known event types, each once.
    static func checkedTypes(_ types: [String]) throws -> [String] {
        for type in types where ChangeKind(rawValue: type) == nil {
            throw ServiceError.invalid(
                .invalidEventType,
                "event_types has \"\(type.prefix(40))\"; known types: "
                    + ChangeKind.allCases.map(\.rawValue).joined(separator: ", "))
        }
        var seen = Set<String>()
        return types.filter { seen.insert($0).inserted }
    }

    /// A new endpoint's signing secret: `whsec_` and the base64 of 24 random bytes, the form Standard Webhooks
    /// libraries take as it is.
    static func newSecret() -> String {
        "whsec_" + SymmetricKey(size: .init(bitCount: 192)).withUnsafeBytes { Base64.standardEncode(Array($0)) }
    }

    static func randomHex(_ bytes: Int) -> String {
        SymmetricKey(size: SymmetricKeySize(bitCount: bytes * 8)).withUnsafeBytes { raw in
            HexDigest.hex(raw)
        }
    }
}
