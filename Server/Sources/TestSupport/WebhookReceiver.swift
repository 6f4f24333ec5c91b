public import Foundation
import HTTPTypes
public import Hummingbird
import Synchronization

/// A loopback webhook receiver: records every delivery (its signature, event id and Standard Webhooks headers and
/// its body) and
/// answers with scripted statuses, then 200 — or 500 to everything while it is broken.
public final class WebhookReceiver: Sendable {
    /// One request received.
    public struct Delivery: Sendable {
        /// The `StoreKeeper-Signature` header.
        public var signature: String?
        /// The `StoreKeeper-Event-Id` header.
        public var eventID: String?
        /// The raw body.
        public var body: Data
        /// The Standard Webhooks headers, by name: `webhook-id`, `webhook-timestamp`, `webhook-signature`.
        public var standard: [String: String] = [:]
    }

    private let state = Mutex<(deliveries: [Delivery], statuses: [Int], broken: Bool)>(([], [], false))

    /// A receiver that answers `statuses` in turn, then 200.
    public init(statuses: [Int] = []) {
        state.withLock { $0.statuses = statuses }
    }

    /// Everything received so far, in order.
    public var deliveries: [Delivery] { state.withLock { $0.deliveries } }

    /// While broken, every request gets 500.
    public var broken: Bool {
        get { state.withLock { $0.broken } }
        set { state.withLock { $0.broken = newValue } }
    }

    /// Waits up to `timeout` for `condition` on the deliveries.
    /// - Returns: Whether it held in time.
    public func wait(
        upTo timeout: Duration = .seconds(20), until condition: @Sendable ([Delivery]) -> Bool
    ) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition(deliveries) { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return condition(deliveries)
    }

    /// A router for the receiver: `POST /hook`.
    public func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.post("hook") { request, _ -> Response in
            let buffer = try await request.body.collect(upTo: 4 << 20)
            let delivery = Delivery(
                signature: request.headers[HTTPField.Name("StoreKeeper-Signature")!],
                eventID: request.headers[HTTPField.Name("StoreKeeper-Event-Id")!], body: Data(buffer.readableBytesView),
                standard: Dictionary(
                    uniqueKeysWithValues: ["webhook-id", "webhook-timestamp", "webhook-signature"].compactMap { name in
                        request.headers[HTTPField.Name(name)!].map { (name, $0) }
                    }))
            let status = self.state.withLock { state -> Int in
                state.deliveries.append(delivery)
                if state.broken { return 500 }
                return state.statuses.isEmpty ? 200 : state.statuses.removeFirst()
            }
            return Response(status: .init(code: status))
        }
        return router
    }
}
