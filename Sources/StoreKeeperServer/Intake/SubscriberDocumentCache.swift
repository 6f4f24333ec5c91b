import Foundation
import StoreKeeperStorage
import Synchronization

/// Encoded `subscriber` objects, each kept with the exact stored row it was computed from and the instant
/// until which the engine's answer for that row cannot change (``SubscriptionEngine/nextChange(_:after:)``).
///
/// A hit needs the same row, byte for byte, and a clock before that instant, so it never answers stale: a
/// write by this or another server changes the row. Bounded: past `capacity` entries an arbitrary one is dropped.
final class SubscriberDocumentCache: Sendable {
    struct Entry {
        var snapshot: SubscriberSnapshot
        var validFrom: Date
        var validUntil: Date?
        var body: [UInt8]
    }

    let entries = Mutex<[String: Entry]>([:])
    let capacity: Int

    init(capacity: Int = 50_000) {
        self.capacity = capacity
    }

    /// The encoded subscriber for this row at `instant`, when one is known.
    func body(for snapshot: SubscriberSnapshot, at instant: Date) -> [UInt8]? {
        guard let entry = entries.withLock({ $0[snapshot.appUserID] }), entry.snapshot == snapshot,
            instant >= entry.validFrom, entry.validUntil.map({ instant < $0 }) ?? true
        else { return nil }
        return entry.body
    }

    /// Remembers the encoded subscriber for this row, valid in `[validFrom, validUntil)`.
    func remember(_ body: [UInt8], for snapshot: SubscriberSnapshot, from validFrom: Date, until validUntil: Date?) {
        entries.withLock { entries in
            if entries.count >= capacity, entries[snapshot.appUserID] == nil, let victim = entries.keys.first {
                entries[victim] = nil
            }
            entries[snapshot.appUserID] = Entry(snapshot: snapshot, validFrom: validFrom, validUntil: validUntil, body: body)
        }
    }
}
