import Foundation
public import SubscriptionEngine
import Synchronization

/// Decoded evidence by subscriber, remembered with the exact JSON it was decoded from.
///
/// A hit needs the stored JSON to be byte-for-byte the JSON that was decoded, so the cache can never answer
/// with stale evidence, even when several servers share one database or a transaction rolls back: it only
/// saves the decode. Bounded by bytes: past its budget the least recently used subscribers are forgotten (an
/// entry is counted at three times its JSON, about what the decoded values take).
public final class EvidenceCache: Sendable {
    struct Entry {
        var json: String
        var evidence: EvidenceSet
    }

    let entries: Mutex<LRUCache<String, Entry>>

    /// Makes an empty cache.
    /// - Parameter budget: The most bytes its entries may take.
    public init(budget: Int = CacheBudget.standard.evidence) {
        entries = Mutex(LRUCache(budget: budget))
    }

    /// Its size and hit rate so far.
    public var usage: CacheUsage { entries.withLock { $0.usage } }

    /// The evidence stored as `json` for `appUserID`, decoded once.
    /// - Parameters:
    ///   - json: The stored ``EvidenceSet`` JSON.
    ///   - appUserID: Whose it is.
    /// - Returns: The evidence.
    /// - Throws: `DecodingError` when the JSON is not evidence.
    public func evidence(_ json: String, for appUserID: String) throws -> EvidenceSet {
        if let entry = entries.withLock({ $0.value(for: appUserID) }), entry.json == json { return entry.evidence }
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
        let cost = json.utf8.count * 3 + appUserID.utf8.count
        entries.withLock { $0.set(Entry(json: json, evidence: evidence), for: appUserID, cost: cost) }
    }
}
