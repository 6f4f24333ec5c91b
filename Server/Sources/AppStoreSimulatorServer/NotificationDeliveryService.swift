import AppStoreSigning
public import AppStoreSimulator
public import AsyncHTTPClient
import Foundation
import NIOCore
public import ServiceLifecycle

/// Delivers the simulator's notifications to each app's URLs: V2 as `{"signedPayload": …}`, V1 as Apple's JSON,
/// retried on anything but 2xx on Apple's schedule scaled by the simulator's rate, every attempt recorded in
/// notification history. Also catches the simulated world up to the clock, so renewals happen on time.
public struct NotificationDeliveryService: Service {
    let simulator: AppStoreSimulator
    let httpClient: HTTPClient
    let interval: Duration

    /// Makes the service.
    /// - Parameters:
    ///   - simulator: The simulator.
    ///   - httpClient: The client used to POST notifications.
    ///   - interval: How often to look for due work.
    public init(simulator: AppStoreSimulator, httpClient: HTTPClient, interval: Duration = .milliseconds(25)) {
        self.simulator = simulator
        self.httpClient = httpClient
        self.interval = interval
    }

    /// How many notifications one round delivers before the world is caught up again.
    static let batch = 32

    /// Runs until graceful shutdown: rounds of at most ``batch`` deliveries, back to back while a backlog
    /// lasts, `interval` apart otherwise. Shutdown cancels the round in flight: a delivery cut short is not
    /// recorded as an attempt, so it is still due when the simulator starts again.
    public func run() async throws {
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            let delivered = try? await cancelWhenGracefulShutdown { await deliverDue(limit: Self.batch) }
            if (delivered ?? 0) < Self.batch {
                try? await Task.sleep(for: interval)
            }
        }
    }

    /// Sends the notifications that are due now (at most `limit` of them, oldest first), once each: each
    /// subscription's in order, different subscriptions' side by side (as Apple's servers send them).
    /// - Parameter limit: The most to send.
    /// - Returns: How many were due and sent.
    @discardableResult
    public func deliverDue(limit: Int = .max) async -> Int {
        let due = await simulator.dueNotifications(limit: limit)
        var lanes: [String: [SimulatedNotification]] = [:]
        var order: [String] = []
        for notification in due {
            let lane = notification.originalTransactionID ?? notification.notificationUUID
            if lanes[lane] == nil { order.append(lane) }
            lanes[lane, default: []].append(notification)
        }
        await withTaskGroup(of: Void.self) { group in
            for lane in order {
                let notifications = lanes[lane] ?? []
                group.addTask {
                    for notification in notifications {
                        if Task.isCancelled { return }
                        await deliver(notification)
                    }
                }
            }
        }
        return due.count
    }

    /// One attempt at one notification, recorded unless cut short by cancellation.
    func deliver(_ notification: SimulatedNotification) async {
        guard let app = await simulator.app(notification.bundleID) else { return }
        var result = "SUCCESS"
        if let url = app.notificationURL {
            let body = CompactJSON.data(["signedPayload": notification.signedPayload])
            result = await post(body, to: url)
        }
        if let url = app.notificationV1URL, let v1 = notification.v1Body {
            let v1Result = await post(v1, to: url)
            if result == "SUCCESS" { result = v1Result }
        }
        if Task.isCancelled { return }
        await simulator.recordAttempt(notificationUUID: notification.notificationUUID, result: result)
    }

    func post(_ body: Data, to url: String) async -> String {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: body))
        do {
            let response = try await httpClient.execute(request, timeout: .seconds(10))
            _ = try? await response.body.collect(upTo: 1 << 16)
            return (200...206).contains(Int(response.status.code)) ? "SUCCESS" : "UNSUCCESSFUL_HTTP_RESPONSE_CODE"
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout {
            return "TIMED_OUT"
        } catch {
            return "NO_RESPONSE"
        }
    }
}
