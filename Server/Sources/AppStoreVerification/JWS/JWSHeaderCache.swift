import Foundation
import Synchronization

/// Remembers decoded JWS headers by their exact encoded bytes.
///
/// Apple's headers hold only `alg` and the `x5c` chain, so every token from one signing certificate carries the
/// same header; decoding it (4 KB of base64 and JSON) once instead of per token keeps a cached verification
/// close to the cost of its signature check. Bounded; emptied when full.
///
/// Headers are split before anything is verified, so anyone can fill this cache: only headers the size of Apple's
/// (three certificates, about 4 KB) are kept, at most ``maximumHeaderBytes`` each, so a full cache holds at most
/// `capacity` × 8 KB (2 MB by default) however large the tokens an attacker posts.
public final class JWSHeaderCache: Sendable {
    private let entries = Mutex<[HeaderBytes: JWSHeader]>([:])
    /// How many headers are remembered.
    public let capacity: Int
    /// The largest encoded header remembered; larger ones are decoded every time. Apple's are about 4 KB.
    public static let maximumHeaderBytes = 8_192

    /// Makes a cache.
    /// - Parameter capacity: How many headers to remember (default 256).
    public init(capacity: Int = 256) { self.capacity = capacity }

    /// How many headers are remembered now.
    public var count: Int { entries.withLock { $0.count } }

    func header(for encoded: ArraySlice<UInt8>) -> JWSHeader? {
        let key = HeaderBytes(encoded)
        return entries.withLock { $0[key] }
    }

    func store(_ header: JWSHeader, for encoded: ArraySlice<UInt8>) {
        guard capacity > 0, encoded.count <= Self.maximumHeaderBytes else { return }
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
