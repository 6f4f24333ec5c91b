import Foundation
import Synchronization

/// Apple's real-time retention requests are answered once each: a verified request whose `signedDate` lies more
/// than ``window`` from the server's clock, or whose `requestIdentifier` was already admitted, is refused. A
/// captured genuine request replayed later therefore neither records an exchange nor earns a freshly signed offer.
///
/// Identifiers are remembered for twice the window (any older request is refused by its date anyway), at most
/// ``capacity`` of them; past that, the oldest are forgotten first. Shared by every copy of the service. This
/// process's memory is the quick first refusal; the database is where every replica's admissions meet
/// (``RetentionRecorder``: a request another replica admitted is refused when its exchange would be recorded).
final class RetentionReplayGuard: Sendable {
    /// Why a request is refused.
    enum Refusal: Error, Equatable {
        /// The request was signed more than ``window`` from now, or carries no `signedDate`.
        case stale(signedDate: Int64?)
        /// The request's identifier was admitted before.
        case replayed
    }

    /// How far a request's `signedDate` may lie from the server's clock (Apple's requests arrive within seconds).
    static let window: TimeInterval = 300
    /// The most identifiers kept at once.
    let capacity: Int

    private struct Memory {
        /// When each remembered identifier was admitted.
        var admitted: [String: Date] = [:]
        /// The identifiers in the order admitted, from `start` on (earlier slots are forgotten).
        var order: [String] = []
        var start = 0
    }
    private let memory = Mutex(Memory())

    /// A guard remembering at most `capacity` identifiers.
    init(capacity: Int = 200_000) { self.capacity = max(1, capacity) }

    /// Admits a verified request once, or throws why not. Nothing is remembered for a refused request.
    func admit(_ identifier: String, signedDate: Int64?, now: Date) throws(Refusal) {
        guard let signedDate,
            abs(Double(signedDate) / 1000 - now.timeIntervalSince1970) <= Self.window
        else { throw .stale(signedDate: signedDate) }
        let capacity = capacity
        let admitted = memory.withLock { memory -> Bool in
            let cutoff = now.addingTimeInterval(-2 * Self.window)
            if let seen = memory.admitted[identifier], seen >= cutoff { return false }
            Self.forget(before: cutoff, keeping: capacity - 1, in: &memory)
            memory.admitted[identifier] = now
            memory.order.append(identifier)
            return true
        }
        guard admitted else { throw .replayed }
    }

    /// Drops identifiers admitted before `cutoff`, then the oldest until at most `keeping` remain.
    private static func forget(before cutoff: Date, keeping: Int, in memory: inout Memory) {
        while memory.start < memory.order.count {
            let oldest = memory.order[memory.start]
            let expired = (memory.admitted[oldest] ?? .distantPast) < cutoff
            guard expired || memory.admitted.count > keeping else { break }
            memory.admitted[oldest] = nil
            memory.start += 1
        }
        if memory.start > 1_024, memory.start * 2 > memory.order.count {
            memory.order.removeFirst(memory.start)
            memory.start = 0
        }
    }
}
