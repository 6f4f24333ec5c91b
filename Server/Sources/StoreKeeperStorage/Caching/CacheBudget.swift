/// How much memory the caches may use together (`cacheMegabytes` in the configuration), and each one's share:
/// half for encoded subscriber answers, 35 % for decoded evidence, the rest for encoded observations. Each
/// cache forgets its least recently used entries to stay within its share (``LRUCache``).
public struct CacheBudget: Sendable, Hashable {
    /// The whole budget, in bytes.
    public var bytes: Int

    /// A budget of `megabytes` MiB.
    public init(megabytes: Int) { bytes = max(0, megabytes) << 20 }

    /// 256 MiB.
    public static let standard = CacheBudget(megabytes: 256)

    /// Encoded subscriber answers (the server's answer cache).
    public var answers: Int { bytes / 2 }
    /// Decoded evidence (``EvidenceCache``).
    public var evidence: Int { bytes * 7 / 20 }
    /// Encoded observations (``EvidenceEncoder``).
    public var encodings: Int { bytes - answers - evidence }
}
