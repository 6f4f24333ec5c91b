import Hummingbird
import StoreKeeperAPI

/// The owner's backend hears of changes: endpoints, their delivery logs, tests and redelivery.
struct WebhookRoutes: APIFeature {
    let webhooks: WebhookService

    func register(_ handlers: inout APIHandlers) {
        handlers.on(.getSubscriberDeliveries) { call in
            try call.json(
                try await webhooks.deliveries(
                    appUserID: try call.parameter(.appUserID), status: call.query("status"), bundleID: call.bundleID))
        }
        handlers.on(.postWebhook) { call in
            let body = try await call.decode(WebhookEndpointPost.self)
            return try call.json(try await webhooks.create(body, bundleID: call.bundleID), status: .created)
        }
        handlers.on(.getWebhooks) { call in try call.json(try await webhooks.list(bundleID: call.bundleID)) }
        handlers.on(.deleteWebhook) { call in
            try await webhooks.delete(id: try call.parameter(.resourceID), bundleID: call.bundleID)
            return Response(status: .noContent)
        }
        handlers.on(.getWebhookDeliveries) { call in
            try call.json(
                try await webhooks.deliveries(
                    endpointID: try call.parameter(.resourceID), status: call.query("status"), bundleID: call.bundleID))
        }
        handlers.on(.postWebhookTest) { call in
            _ = try await call.body()  // none is expected; a malformed one is refused like any other
            return try call.json(
                try await webhooks.test(endpointID: try call.parameter(.resourceID), bundleID: call.bundleID),
                status: .accepted)
        }
        handlers.on(.postRedeliver) { call in
            _ = try await call.body()
            try await webhooks.redeliver(deliveryID: try call.parameter(.resourceID), bundleID: call.bundleID)
            return Response(status: .accepted)
        }
    }
}
