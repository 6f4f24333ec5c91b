import Crypto
public import Foundation
import StoreKeeperWire
import SwiftASN1
import X509

/// Verifies an app receipt on our own machine: base64 → PKCS#7 → CMS signature → chain to a pinned root at
/// the receipt's creation date → payload → expectations (bundle id, version, device hash).
///
/// Apple's receipt-signing certificates have all expired by now, so the chain is evaluated at the receipt's
/// creation date (Apple's offline rule) unless a validation time is configured. Xcode receipts (signed by the
/// StoreKit test certificate) are accepted only when ``Configuration/allowsXcodeReceipts`` is set.
///
/// ```swift
/// let verifier = try AppReceiptVerifier(configuration: .init(expectations: .init(bundleID: "com.example")))
/// let receipt = try await verifier.verify(base64: body.receipt)
/// ```
public struct AppReceiptVerifier: Sendable {
    /// How the verifier decides.
    public struct Configuration: Sendable {
        /// DER roots to trust. Default: Apple Inc. Root only.
        public var rootCertificates: [[UInt8]] = [AppleRootCertificates.appleIncRoot]
        /// Whether Xcode's StoreKit test certificate is trusted as well. Default `false`.
        public var allowsXcodeReceipts = false
        /// When set, the chain is checked at this time instead of the receipt's creation date. Default `nil`.
        public var validationTime: Date? = nil
        /// What the receipt must say. Default: nothing.
        public var expectations = AppReceiptExpectations()
        /// The largest receipt accepted, in decoded bytes. Default 4 MiB.
        public var maximumSize = 4 * 1024 * 1024

        /// The defaults.
        public init() {}

        /// Makes a configuration.
        /// - Parameters:
        ///   - rootCertificates: DER roots.
        ///   - allowsXcodeReceipts: Whether to trust Xcode's StoreKit certificate.
        ///   - validationTime: Fixed validation time, or `nil` for the creation date.
        ///   - expectations: What the receipt must say.
        public init(
            rootCertificates: [[UInt8]] = [AppleRootCertificates.appleIncRoot],
            allowsXcodeReceipts: Bool = false,
            validationTime: Date? = nil,
            expectations: AppReceiptExpectations = .init()
        ) {
            self.rootCertificates = rootCertificates
            self.allowsXcodeReceipts = allowsXcodeReceipts
            self.validationTime = validationTime
            self.expectations = expectations
        }
    }

    /// The configuration.
    public let configuration: Configuration
    /// The chain validator and its cache.
    public let chainValidator: ChainValidator
    private let roots: [Certificate]

    /// Makes a verifier.
    /// - Parameter configuration: Roots, validation time, expectations.
    /// - Throws: ``VerificationError/Code/malformedCertificate`` when a root does not parse.
    public init(configuration: Configuration = .init()) throws {
        self.configuration = configuration
        var roots = configuration.rootCertificates
        if configuration.allowsXcodeReceipts { roots.append(AppleRootCertificates.storeKitTesting) }
        self.chainValidator = try ChainValidator(roots: roots, requirements: .appReceipt)
        self.roots = try roots.map { try Certificate(derEncoded: $0) }
    }

    /// Verifies a base64 receipt (line breaks and spaces are ignored).
    /// - Parameter base64: The receipt as the app sends it.
    /// - Returns: The verified, decoded receipt.
    /// - Throws: ``VerificationError``.
    public func verify(base64: some StringProtocol) async throws -> VerifiedReceipt {
        guard base64.utf8.count <= configuration.maximumSize * 4 / 3 + 4 else {
            throw VerificationError(.inputTooLarge, "receipt of \(base64.utf8.count) base64 bytes is too large")
        }
        guard let bytes = Base64.decode(base64, ignoringWhitespace: true), !bytes.isEmpty else {
            throw VerificationError(.malformed, "receipt is not base64")
        }
        return try await verify(der: bytes)
    }

    /// Verifies a receipt's bytes.
    /// - Parameter der: The PKCS#7 bytes.
    /// - Returns: The verified, decoded receipt.
    /// - Throws: ``VerificationError``.
    public func verify(der: [UInt8]) async throws -> VerifiedReceipt {
        guard der.count <= configuration.maximumSize else {
            throw VerificationError(
                .inputTooLarge, "receipt of \(der.count) bytes exceeds \(configuration.maximumSize)")
        }
        let message = try PKCS7SignedData(bytes: der)
        let bag = try message.certificates.enumerated().map { index, certificateDER in
            do { return (der: certificateDER, certificate: try Certificate(derEncoded: certificateDER)) } catch {
                throw VerificationError(.malformedCertificate, "receipt certificate #\(index): \(error)")
            }
        }
        let signerIndex = try signerIndex(message.signer, in: bag.map(\.certificate))
        let algorithm = try ReceiptSignature.check(message, signer: bag[signerIndex].certificate)
        let receipt = try AppReceiptPayloadDecoder.decode(message.content)
        guard let time = configuration.validationTime ?? receipt.creationDate else {
            throw VerificationError(.malformed, "receipt has no creation date (attribute 12) to validate the chain at")
        }
        let chainDER = try orderedChain(from: signerIndex, bag: bag)
        let chain = try await chainValidator.validate(chainDER, at: time)
        try check(receipt)
        let isXcode =
            chain.root.subject == (try? Certificate(derEncoded: AppleRootCertificates.storeKitTesting))?.subject
        return VerifiedReceipt(receipt: receipt, chain: chain, signatureAlgorithm: algorithm, isXcodeReceipt: isXcode)
    }

    /// Finds the certificate named by the signer's issuer and serial number.
    func signerIndex(_ signer: PKCS7SignerInfo, in certificates: [Certificate]) throws -> Int {
        let issuer = try? DistinguishedName(derEncoded: DER.parse(signer.issuer))
        let serial = Self.withoutLeadingZeros(signer.serialNumber[...])
        for (index, certificate) in certificates.enumerated()
        where Self.withoutLeadingZeros(certificate.serialNumber.bytes) == serial && certificate.issuer == issuer {
            return index
        }
        throw VerificationError(
            .invalidChain, "no certificate in the receipt matches the signer's issuer and serial number")
    }

    private static func withoutLeadingZeros(_ serial: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var slice = serial
        while slice.count > 1, slice.first == 0 { slice = slice.dropFirst() }
        return slice
    }

    /// Orders the signer's chain: signer first, then issuers from the message, ending at a pinned root.
    func orderedChain(from signerIndex: Int, bag: [(der: [UInt8], certificate: Certificate)]) throws -> [[UInt8]] {
        var chain = [bag[signerIndex].der]
        var current = bag[signerIndex].certificate
        for _ in 0..<6 {
            if chainValidator.roots.contains(chain[chain.count - 1]) { return chain }
            if current.subject == current.issuer {
                throw VerificationError(
                    .untrustedRoot, "the receipt chain ends at \"\(current.subject)\", which is not a pinned root")
            }
            if let root = roots.firstIndex(where: { $0.subject == current.issuer }) {
                chain.append(chainValidator.roots[root])
                return chain
            }
            guard let next = bag.first(where: { $0.certificate.subject == current.issuer && !chain.contains($0.der) })
            else {
                throw VerificationError(
                    .untrustedRoot, "no pinned root or carried certificate issued \"\(current.subject)\"")
            }
            chain.append(next.der)
            current = next.certificate
        }
        throw VerificationError(.invalidChain, "the receipt chain is longer than 6 certificates")
    }

    func check(_ receipt: AppReceipt) throws {
        let expected = configuration.expectations
        if let bundleID = expected.bundleID, receipt.bundleID != bundleID {
            throw VerificationError(
                .unexpectedBundleID,
                "receipt bundle_id is \(UntrustedText.quoted(receipt.bundleID)), expected \"\(bundleID)\"")
        }
        if let version = expected.appVersion, receipt.appVersion != version {
            throw VerificationError(
                .unexpectedAppVersion,
                "receipt application_version is \"\(receipt.appVersion ?? "absent")\", expected \"\(version)\"")
        }
        if let device = expected.deviceIdentifier {
            var hash = Insecure.SHA1()
            hash.update(data: device)
            hash.update(data: receipt.opaqueValue)
            hash.update(data: receipt.bundleIDData)
            guard Array(hash.finalize()) == receipt.sha1Hash else {
                throw VerificationError(
                    .deviceHashMismatch, "receipt SHA-1 hash does not match the given device identifier")
            }
        }
    }
}
