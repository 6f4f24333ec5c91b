import Foundation
public import SubscriptionEngine
import Synchronization

/// Decoded evidence by subscriber, remembered with the exact JSON it was decoded from.
///
/// A hit needs the stored JSON to be byte-for-byte the JSON that was decoded, so the cache can never answer
/// with stale evidence, even when several servers share one database or a transaction rolls back: it only
/// saves the decode. Bounded: past `capacity` entries an arbitrary one is dropped.
public final class EvidenceCache: Sendable {
    struct Entry {
        var json: String
        var evidence: EvidenceSet
    }

    let entries = Mutex<[String: Entry]>([:])
    let capacity: Int

    /// Makes an empty cache.
    /// - Parameter capacity: The most subscribers remembered.
    public init(capacity: Int = 50_000) {
        self.capacity = capacity
    }

    /// The evidence stored as `json` for `appUserID`, decoded once.
    /// - Parameters:
    ///   - json: The stored ``EvidenceSet`` JSON.
    ///   - appUserID: Whose it is.
    /// - Returns: The evidence.
    /// - Throws: `DecodingError` when the JSON is not evidence.
    public func evidence(_ json: String, for appUserID: String) throws -> EvidenceSet {
        if let entry = entries.withLock({ $0[appUserID] }), entry.json == json { return entry.evidence }
        let evidence = try JSONDecoder().decode(EvidenceSet.self, from: Data(json.utf8))
        remember(json, evidence, for: appUserID)
        return evidence
    }

    /// Remembers evidence that was just encoded as `json`.
    /// - Parameters:
    ///   - json: Its JSON.
    ///   - evidence: The evidence.
    ///   - appUserID: Whose it is.
    public func remember(_ json: String, _ evidence: EvidenceSet, for appUserID: String) {
        entries.withLock { entries in
            if entries.count >= capacity, entries[appUserID] == nil, let victim = entries.keys.first {
                entries[victim] = nil
            }
            entries[appUserID] = Entry(json: json, evidence: evidence)
        }
    }
}
