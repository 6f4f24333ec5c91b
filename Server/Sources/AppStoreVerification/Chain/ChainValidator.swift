public import Foundation
import SwiftASN1
import Synchronization
@_spi(FixedExpiryValidationTime) import X509

/// Validates certificate chains against pinned roots and remembers the chains it has validated.
///
/// A chain is trusted only when its root is byte-for-byte one of ``roots``. Validation (RFC 5280 path checks
/// through swift-certificates, the required Apple extensions, validity at the given time) runs once per
/// distinct chain: the result is cached under the exact DER bytes of every certificate, together with the
/// validity window, so N tokens from one signing certificate cost one chain check plus N signature checks.
/// Only successes are cached, and the cache is bounded.
public final class ChainValidator: Sendable {
    /// The DER bytes of the trusted roots.
    public let roots: [[UInt8]]
    /// Extra rules the chain must meet.
    public let requirements: ChainRequirements
    /// How many chains are remembered before the cache is emptied.
    public let cacheCapacity: Int

    private let parsedRoots: [Certificate]
    private let cache = Mutex<[ChainKey: VerifiedChain]>([:])

    /// Makes a validator.
    /// - Parameters:
    ///   - roots: DER-encoded trusted roots.
    ///   - requirements: Extra rules (Apple extensions).
    ///   - cacheCapacity: How many validated chains to remember (default 256).
    /// - Throws: ``VerificationError/Code/malformedCertificate`` when a root does not parse.
    public init(roots: [[UInt8]], requirements: ChainRequirements, cacheCapacity: Int = 256) throws {
        self.roots = roots
        self.requirements = requirements
        self.cacheCapacity = cacheCapacity
        self.parsedRoots = try roots.enumerated().map { index, der in
            do { return try Certificate(derEncoded: der) } catch {
                throw VerificationError(.malformedCertificate, "configured root #\(index): \(error)")
            }
        }
    }

    /// How many chains are cached now.
    public var cachedChainCount: Int { cache.withLock { $0.count } }

    /// A cached chain for these exact certificates, if it is valid at `time`.
    /// - Parameters:
    ///   - chain: DER certificates, leaf first, root last.
    ///   - time: The validation time, or `nil` to return the entry whatever its window (the caller then checks
    ///     ``VerifiedChain/isValid(at:)`` itself).
    /// - Returns: The cached chain, or `nil` on a miss.
    public func cachedChain(_ chain: [[UInt8]], at time: Date?) -> VerifiedChain? {
        cachedChain(ChainKey(chain), at: time)
    }

    /// A cached chain for a precomputed key.
    /// - Parameters:
    ///   - key: The chain's key.
    ///   - time: The validation time, or `nil` for any.
    /// - Returns: The cached chain, or `nil` on a miss.
    public func cachedChain(_ key: ChainKey, at time: Date?) -> VerifiedChain? {
        guard let hit = cache.withLock({ $0[key] }) else { return nil }
        if let time, !hit.isValid(at: time) { return nil }
        return hit
    }

    /// Validates a chain, from the cache when possible.
    /// - Parameters:
    ///   - chain: DER certificates, leaf first, root last (the root must be one of ``roots``).
    ///   - time: The time at which every certificate must be valid.
    /// - Returns: The validated chain.
    /// - Throws: ``VerificationError`` with `malformedCertificate`, `untrustedRoot`, `certificateExpired`,
    ///   `missingAppleExtension` or `invalidChain`.
    public func validate(_ chain: [[UInt8]], at time: Date) async throws -> VerifiedChain {
        if let hit = cachedChain(chain, at: time) { return hit }
        let verified = try await validateUncached(chain, at: time)
        guard cacheCapacity > 0 else { return verified }
        cache.withLock { entries in
            if entries.count >= cacheCapacity { entries.removeAll(keepingCapacity: true) }
            entries[ChainKey(chain)] = verified
        }
        return verified
    }

    /// Validates a chain without consulting or filling the cache.
    /// - Parameters:
    ///   - chain: DER certificates, leaf first, root last.
    ///   - time: The validation time.
    /// - Returns: The validated chain.
    /// - Throws: See ``validate(_:at:)``.
    public func validateUncached(_ chain: [[UInt8]], at time: Date) async throws -> VerifiedChain {
        guard !chain.isEmpty else {
            throw VerificationError(.wrongChainLength, "the chain holds no certificate")
        }
        let certificates = try chain.enumerated().map { index, der in
            do { return try Certificate(derEncoded: der) } catch {
                throw VerificationError(.malformedCertificate, "certificate #\(index) of the chain: \(error)")
            }
        }
        guard let rootIndex = roots.firstIndex(of: chain[chain.count - 1]) else {
            let name = certificates[certificates.count - 1].subject.description
            throw VerificationError(.untrustedRoot, "the chain ends at \"\(name)\", which is not a pinned root")
        }
        for (index, certificate) in certificates.enumerated()
        where time < certificate.notValidBefore || time > certificate.notValidAfter {
            throw VerificationError(
                .certificateExpired,
                "certificate #\(index) \"\(certificate.subject)\" is valid \(certificate.notValidBefore) to "
                    + "\(certificate.notValidAfter), not at \(time)")
        }
        let root = parsedRoots[rootIndex]
        if certificates.count == 1 {
            // A pinned root that signs directly (Xcode's StoreKit test certificate).
            return VerifiedChain(
                leaf: root, intermediates: [], root: root, validFrom: root.notValidBefore,
                validUntil: root.notValidAfter)
        }
        let leaf = certificates[0]
        let intermediates = Array(certificates[1..<(certificates.count - 1)])
        if let oid = requirements.leafExtension, leaf.extensions[oid: oid] == nil {
            throw VerificationError(.missingAppleExtension, "the leaf lacks extension \(oid)")
        }
        if let oid = requirements.intermediateExtension {
            guard let intermediate = intermediates.first, intermediate.extensions[oid: oid] != nil else {
                throw VerificationError(.missingAppleExtension, "the intermediate lacks extension \(oid)")
            }
        }
        if requirements.leafSignsDigitally, (try? leaf.extensions.keyUsage)??.digitalSignature != true {
            throw VerificationError(
                .missingAppleExtension, "the leaf's key usage does not allow digital signatures")
        }
        var verifier = Verifier(rootCertificates: CertificateStore([root])) {
            RFC5280Policy(fixedExpiryValidationTime: time)
        }
        let result = await verifier.validate(leaf: leaf, intermediates: CertificateStore(intermediates))
        guard case .validCertificate(let path) = result else {
            if case .couldNotValidate(let failures) = result {
                let reasons = failures.map { String(describing: $0.policyFailureReason) }
                throw VerificationError(
                    .invalidChain,
                    "\"\(leaf.subject)\" does not chain to the pinned root"
                        + (reasons.isEmpty
                            ? " (no path: a signature or issuer name does not match)"
                            : ": \(reasons.joined(separator: "; "))"))
            }
            throw VerificationError(.invalidChain, "\"\(leaf.subject)\" does not chain to the pinned root")
        }
        let pathCertificates = Array(path)
        return VerifiedChain(
            leaf: leaf,
            intermediates: intermediates,
            root: root,
            validFrom: pathCertificates.map(\.notValidBefore).max() ?? leaf.notValidBefore,
            validUntil: pathCertificates.map(\.notValidAfter).min() ?? leaf.notValidAfter
        )
    }
}

/// The exact DER bytes of a chain: the cache key. The hash is computed once, so a key held by a caller (see
/// ``JWSHeaderCache``) costs a comparison, not a rehash, per lookup.
public struct ChainKey: Hashable, Sendable {
    /// The DER certificates, leaf first.
    public let certificates: [[UInt8]]
    private let digest: Int

    /// Makes a key.
    /// - Parameter certificates: The DER certificates, leaf first.
    public init(_ certificates: [[UInt8]]) {
        self.certificates = certificates
        var hasher = Hasher()
        for der in certificates {
            hasher.combine(der.count)
            der.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
        digest = hasher.finalize()
    }

    /// Combines the precomputed hash.
    public func hash(into hasher: inout Hasher) { hasher.combine(digest) }

    /// Equal when every certificate is byte-for-byte equal.
    public static func == (lhs: ChainKey, rhs: ChainKey) -> Bool {
        guard lhs.digest == rhs.digest, lhs.certificates.count == rhs.certificates.count else { return false }
        for (left, right) in zip(lhs.certificates, rhs.certificates) {
            guard left.count == right.count else { return false }
            let same = left.withUnsafeBytes { a in
                right.withUnsafeBytes { b in memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 }
            }
            guard same || left.isEmpty else { return false }
        }
        return true
    }
}
