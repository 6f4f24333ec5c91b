import AppStoreClient
import AppStoreModels
import Foundation
import Logging
import ServiceLifecycle
import StoreKeeperStorage

/// Finds the notifications Apple sent that never arrived: every `interval`, for each app with App Store Server
/// API credentials, it reads Get Notification History (`onlyFailures`) for the window since its last run (with
/// an overlap) and applies each through the normal intake with cause `reconciliation`. A notification that did
/// arrive, or arrives later, is claimed by its UUID once: nothing is applied twice. When Apple's rate limit stops
/// a run, the app's window is kept and its next run waits for Apple's `Retry-After`.
struct NotificationReconciler: Service {
    let service: IntakeService
    let interval: Duration
    /// How far back the first run looks (Apple keeps 180 days of history).
    let lookback: TimeInterval
    /// How far each window reaches back before the previous one's end.
    let overlap: TimeInterval

    init(
        service: IntakeService, interval: Duration, lookback: TimeInterval = 7 * 86_400, overlap: TimeInterval = 600
    ) {
        self.service = service
        self.interval = interval
        self.lookback = lookback
        self.overlap = overlap
    }

    func run() async throws {
        var since: [String: Date] = [:]
        // Apple's rate limit: an app's next run waits until Apple said it answers again (wall clock).
        var resumeAt: [String: Date] = [:]
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            for (bundleID, app) in service.apps.byBundleID.sorted(by: { $0.key < $1.key }) {
                guard let credentials = app.credentials, (resumeAt[bundleID] ?? .distantPast) <= Date() else {
                    continue
                }
                let end = service.now()
                let start = (since[bundleID] ?? end.addingTimeInterval(-lookback)).addingTimeInterval(-overlap)
                do {
                    try await reconcile(bundleID, credentials: credentials, from: start, to: end)
                    since[bundleID] = end
                } catch {
                    if Task.isCancelled { return }
                    let wait = (error as? AppStoreClientError)?.retryAfter
                    if let wait { resumeAt[bundleID] = Date().addingTimeInterval(wait) }
                    service.logger.warning(
                        "notification reconciliation failed; the next run covers this window again",
                        metadata: [
                            "bundle_id": "\(bundleID)", "reason": "\(error)",
                            "retry_after_seconds": "\(wait.map { Int($0.rounded(.up)) } ?? 0)",
                        ])
                }
            }
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
        }
    }

    /// Applies every notification of the window that did not reach the server.
    /// - Returns: How many were applied (not already known).
    @discardableResult
    func reconcile(_ bundleID: String, credentials: AppStoreClient.Credentials, from start: Date, to end: Date)
        async throws -> Int
    {
        var request = NotificationHistoryRequest()
        request.startDate = AppleDateFormat.milliseconds(start)
        request.endDate = AppleDateFormat.milliseconds(end)
        request.onlyFailures = true
        var token: String?
        var applied = 0
        var seen = 0
        repeat {
            let page = try await service.client.notificationHistory(
                request, paginationToken: token, credentials: credentials)
            for item in page.notificationHistory ?? [] {
                guard let signed = item.signedPayload else { continue }
                seen += 1
                do {
                    let outcome = try await service.ingestV2(signed, cause: .reconciliation)
                    if outcome != .duplicate { applied += 1 }
                } catch {
                    service.logger.warning(
                        "a notification from Apple's history was not applied",
                        metadata: ["bundle_id": "\(bundleID)", "reason": "\(error)"])
                }
            }
            token = page.hasMore == true ? page.paginationToken : nil
        } while token != nil && !Task.isCancelled
        ServerMetrics.reconciled(applied)
        if applied > 0 {
            service.logger.info(
                "notifications recovered from Apple's history",
                metadata: ["bundle_id": "\(bundleID)", "applied": "\(applied)", "failed_deliveries": "\(seen)"])
        }
        return applied
    }
}
