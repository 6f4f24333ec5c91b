import Foundation
public import SubscriptionEngine
import Synchronization

/// Encodes an ``EvidenceSet`` as the JSON `JSONEncoder` writes for it with sorted keys — the same bytes —
/// remembering each observation's JSON.
///
/// A subscriber's evidence is rewritten whole on every change, but a change adds one or two observations to
/// the many already stored: with the others' JSON remembered, a save encodes only what is new. Observations
/// are values, so a remembered encoding can never be stale. Bounded by bytes: past its budget the least recently
/// used encodings are forgotten (each counted at its JSON and as much again for the observation it is keyed by).
public final class EvidenceEncoder: Sendable {
    let transactions: Mutex<LRUCache<Transaction, [UInt8]>>
    let renewals: Mutex<LRUCache<RenewalState, [UInt8]>>

    /// Makes an encoder with nothing remembered.
    /// - Parameter budget: The most bytes its remembered encodings may take (half for each kind).
    public init(budget: Int = CacheBudget.standard.encodings) {
        transactions = Mutex(LRUCache(budget: budget / 2))
        renewals = Mutex(LRUCache(budget: budget - budget / 2))
    }

    /// The size and use of its memory of encodings (both kinds together).
    public var usage: CacheUsage {
        let (first, second) = (transactions.withLock { $0.usage }, renewals.withLock { $0.usage })
        return CacheUsage(
            bytes: first.bytes + second.bytes, budget: first.budget + second.budget,
            entries: first.entries + second.entries, hits: first.hits + second.hits,
            misses: first.misses + second.misses, evictions: first.evictions + second.evictions)
    }

    /// The JSON of `evidence`.
    /// - Parameter evidence: The evidence.
    /// - Returns: What `JSONEncoder` with `.sortedKeys` writes for it.
    /// - Throws: `EncodingError` (a date or number JSON cannot hold).
    public func encode(_ evidence: EvidenceSet) throws -> String {
        // Rare evidence (a rescinded consent, a grant) has keys of its own: the generic encoder writes it.
        if evidence.hasCustomerEvidence {
            return String(decoding: try Self.elementEncoder.encode(evidence), as: UTF8.self)
        }
        // Keys sorted: "renewals" before "transactions".
        var json = Array(#"{"renewals":["#.utf8)
        try append(evidence.renewals, to: &json, memory: renewals)
        json += Array(#"],"transactions":["#.utf8)
        try append(evidence.transactions, to: &json, memory: transactions)
        json += Array("]}".utf8)
        return String(decoding: json, as: UTF8.self)
    }

    /// The JSON of `base` ∪ `added`, written from `base`'s stored JSON by inserting only the observations
    /// `base` lacks at the end of their arrays: no other observation is hashed or encoded again. The result is
    /// the same evidence as ``encode(_:)`` writes (it decodes to the same set) though not always the same
    /// bytes (array order). JSON not in ``encode(_:)``'s layout is written again whole.
    /// - Parameters:
    ///   - json: What is stored for `base`.
    ///   - base: The stored evidence, decoded from `json`.
    ///   - added: What is being added.
    /// - Returns: The union and its JSON (`json` itself when nothing is new).
    /// - Throws: `EncodingError`.
    public func extend(_ json: String, of base: EvidenceSet, adding added: EvidenceSet) throws -> (
        json: String, evidence: EvidenceSet
    ) {
        let renewals = Array(added.renewals.filter { !base.renewals.contains($0) })
        let transactions = Array(added.transactions.filter { !base.transactions.contains($0) })
        let rescissions = (added.consentRescissions ?? []).subtracting(base.consentRescissions ?? [])
        let grants = (added.grants ?? []).subtracting(base.grants ?? [])
        let revocations = (added.grantRevocations ?? []).subtracting(base.grantRevocations ?? [])
        guard
            !renewals.isEmpty || !transactions.isEmpty || !rescissions.isEmpty || !grants.isEmpty
                || !revocations.isEmpty
        else { return (json, base) }
        var union = base
        union.formUnion(added)
        if union.hasCustomerEvidence { return (try encode(union), union) }
        let bytes = Array(json.utf8)
        let head = Array(#"{"renewals":["#.utf8), middle = Array(#"],"transactions":["#.utf8), tail = Array("]}".utf8)
        guard bytes.starts(with: head), bytes.count >= head.count + middle.count + tail.count,
            Array(bytes.suffix(tail.count)) == tail,
            let split = Self.firstIndex(of: middle, in: bytes, from: head.count)
        else { return (try encode(union), union) }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + (renewals.count + transactions.count) * 512)
        func appendItems<Element: Encodable>(_ stored: ArraySlice<UInt8>, _ new: [Element]) throws {
            output += stored
            for (index, element) in new.enumerated() {
                if index > 0 || !stored.isEmpty { output.append(UInt8(ascii: ",")) }
                output += try Self.encoded(element)
            }
        }
        output += head
        try appendItems(bytes[head.count..<split], renewals)
        output += middle
        try appendItems(bytes[(split + middle.count)..<(bytes.count - tail.count)], transactions)
        output += tail
        return (String(decoding: output, as: UTF8.self), union)
    }

    /// Where `needle` first occurs in `bytes` at or after `start`. (Inside a JSON string every `"` is escaped,
    /// so `],"transactions":[` there can only be the structure between the two arrays.)
    static func firstIndex(of needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + needle.count <= bytes.count {
            if bytes[index] == needle[0], bytes[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    private func append<Element: Encodable & Hashable & Sendable>(
        _ elements: Set<Element>, to json: inout [UInt8], memory: borrowing Mutex<LRUCache<Element, [UInt8]>>
    ) throws {
        var first = true
        for element in elements {
            if !first { json.append(UInt8(ascii: ",")) }
            first = false
            if let known = memory.withLock({ $0.value(for: element) }) {
                json += known
                continue
            }
            let encoded = try Self.encoded(element)
            memory.withLock { $0.set(encoded, for: element, cost: encoded.count * 2) }
            json += encoded
        }
    }

    /// One observation's JSON: written directly (``ObservationWriter``) when it can be written byte for byte as
    /// `JSONEncoder` would, by `JSONEncoder` otherwise.
    static func encoded<Element: Encodable>(_ element: Element) throws -> [UInt8] {
        if let transaction = element as? Transaction, let bytes = ObservationWriter.json(transaction) { return bytes }
        if let renewal = element as? RenewalState, let bytes = ObservationWriter.json(renewal) { return bytes }
        return Array(try elementEncoder.encode(element))
    }

    static let elementEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()
}
