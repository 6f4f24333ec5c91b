import Foundation
public import SubscriptionEngine
import Synchronization

/// Encodes an ``EvidenceSet`` as the JSON `JSONEncoder` writes for it with sorted keys — the same bytes —
/// remembering each observation's JSON.
///
/// A subscriber's evidence is rewritten whole on every change, but a change adds one or two observations to
/// the many already stored: with the others' JSON remembered, a save encodes only what is new. Observations
/// are values, so a remembered encoding can never be stale. Bounded: past `capacity` remembered
/// observations the memory starts empty again.
public final class EvidenceEncoder: Sendable {
    let transactions = Mutex<[Transaction: [UInt8]]>([:])
    let renewals = Mutex<[RenewalState: [UInt8]]>([:])
    let capacity: Int

    /// Makes an encoder with nothing remembered.
    /// - Parameter capacity: The most observations of each kind remembered.
    public init(capacity: Int = 100_000) {
        self.capacity = capacity
    }

    /// The JSON of `evidence`.
    /// - Parameter evidence: The evidence.
    /// - Returns: What `JSONEncoder` with `.sortedKeys` writes for it.
    /// - Throws: `EncodingError` (a date or number JSON cannot hold).
    public func encode(_ evidence: EvidenceSet) throws -> String {
        // Keys sorted: "renewals" before "transactions".
        var json = Array(#"{"renewals":["#.utf8)
        try append(evidence.renewals, to: &json, memory: renewals)
        json += Array(#"],"transactions":["#.utf8)
        try append(evidence.transactions, to: &json, memory: transactions)
        json += Array("]}".utf8)
        return String(decoding: json, as: UTF8.self)
    }

    private func append<Element: Encodable & Hashable & Sendable>(
        _ elements: Set<Element>, to json: inout [UInt8], memory: borrowing Mutex<[Element: [UInt8]]>
    ) throws {
        var first = true
        for element in elements {
            if !first { json.append(UInt8(ascii: ",")) }
            first = false
            if let known = memory.withLock({ $0[element] }) {
                json += known
                continue
            }
            let encoded = Array(try Self.elementEncoder.encode(element))
            memory.withLock { memory in
                if memory.count >= capacity { memory.removeAll(keepingCapacity: true) }
                memory[element] = encoded
            }
            json += encoded
        }
    }

    static let elementEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()
}
