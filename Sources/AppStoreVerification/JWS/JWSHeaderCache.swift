import Foundation
import Synchronization

/// Remembers decoded JWS headers by their exact encoded bytes.
///
/// Apple's headers hold only `alg` and the `x5c` chain, so every token from one signing certificate carries the
/// same header; decoding it (4 KB of base64 and JSON) once instead of per token keeps a cached verification
/// close to the cost of its signature check. Bounded; emptied when full.
public final class JWSHeaderCache: Sendable {
    private let entries = Mutex<[HeaderBytes: JWSHeader]>([:])
    /// How many headers are remembered.
    public let capacity: Int

    /// Makes a cache.
    /// - Parameter capacity: How many headers to remember (default 256).
    public init(capacity: Int = 256) { self.capacity = capacity }

    func header(for encoded: ArraySlice<UInt8>) -> JWSHeader? {
        let key = HeaderBytes(encoded)
        return entries.withLock { $0[key] }
    }

    func store(_ header: JWSHeader, for encoded: ArraySlice<UInt8>) {
        guard capacity > 0 else { return }
        let key = HeaderBytes(encoded)
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = header
        }
    }
}

/// Header bytes hashed in bulk.
struct HeaderBytes: Hashable, Sendable {
    let bytes: [UInt8]

    init(_ slice: ArraySlice<UInt8>) { bytes = Array(slice) }

    func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    static func == (lhs: HeaderBytes, rhs: HeaderBytes) -> Bool {
        lhs.bytes.count == rhs.bytes.count
            && lhs.bytes.withUnsafeBytes { a in
                rhs.bytes.withUnsafeBytes { b in a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 }
            }
    }
}
