import Foundation
import StoreKeeperStorage
import Synchronization

/// The deliveries one dispatcher holds, queued by origin, the lanes sending each origin's queue, and the attempts
/// that ended and wait to be recorded.
///
/// A lane is one connection sending its origin's deliveries one after another; an origin has at most `width`
/// lanes, so a receiver that never answers holds `width` connections and no more, and the deliveries to every
/// other origin go out on lanes of their own.
final class DeliveryQueues: Sendable {
    /// A delivery waiting for its lane.
    struct Queued: Sendable {
        /// The delivery.
        var delivery: LeasedDelivery
        /// Its URL, when it is one deliveries can go to.
        var url: WebhookURL?
        /// When its lease ends: it is not sent when it could not be answered before.
        var leaseEnds: ContinuousClock.Instant
    }

    private struct State {
        var queues: [String: [Queued]] = [:]
        var lanes: [String: Int] = [:]
        var held = 0
        var finished: [DeliveryAttempt] = []
    }

    /// The most lanes to one origin.
    let width: Int
    private let state = Mutex(State())

    /// Queues for lanes of at most `width` per origin.
    init(width: Int) {
        self.width = max(1, width)
    }

    /// Deliveries taken and not yet recorded.
    var held: Int { state.withLock { $0.held } }

    /// Queues deliveries behind their origins' (``WebhookURL/origin``; the raw URL for one that is not valid).
    /// - Returns: An origin for each lane to start: one per queued delivery while its origin has fewer than
    ///   `width` lanes.
    func add(_ deliveries: [LeasedDelivery], leaseEnds: ContinuousClock.Instant) -> [String] {
        state.withLock { state in
            var start: [String] = []
            for delivery in deliveries {
                let url = WebhookURL(delivery.url)
                let origin = url?.origin ?? delivery.url
                state.queues[origin, default: []].append(Queued(delivery: delivery, url: url, leaseEnds: leaseEnds))
                state.held += 1
                if state.lanes[origin, default: 0] < width {
                    state.lanes[origin, default: 0] += 1
                    start.append(origin)
                }
            }
            return start
        }
    }

    /// The next delivery for a lane of `origin`, or `nil`: the queue is empty and the lane ends (counted out in
    /// the same step, so a delivery queued after it starts a lane of its own).
    func next(for origin: String) -> Queued? {
        state.withLock { state in
            if var queue = state.queues[origin], !queue.isEmpty {
                let first = queue.removeFirst()
                state.queues[origin] = queue.isEmpty ? nil : queue
                return first
            }
            state.lanes[origin, default: 1] -= 1
            if state.lanes[origin] == 0 { state.lanes[origin] = nil }
            return nil
        }
    }

    /// Takes every delivery queued for `origin` (its receiver did not answer: they are postponed, not sent).
    func drain(_ origin: String) -> [Queued] {
        state.withLock { state in state.queues.removeValue(forKey: origin) ?? [] }
    }

    /// Attempts that ended (or deliveries postponed), to be recorded together.
    func finish(_ attempts: [DeliveryAttempt]) {
        state.withLock { $0.finished += attempts }
    }

    /// Takes the attempts that ended since the last call; they stay held until ``recorded(_:)``.
    func takeFinished() -> [DeliveryAttempt] {
        state.withLock { state in
            defer { state.finished = [] }
            return state.finished
        }
    }

    /// `count` held deliveries were recorded.
    func recorded(_ count: Int) {
        state.withLock { $0.held -= count }
    }

    /// The lanes sending to `origin` now.
    func lanes(to origin: String) -> Int {
        state.withLock { $0.lanes[origin] ?? 0 }
    }
}
