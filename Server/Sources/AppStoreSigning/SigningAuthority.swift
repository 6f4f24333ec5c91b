import AppStoreVerification
public import Crypto
public import Foundation
import SwiftASN1
public import X509

/// A generated certificate authority shaped like Apple's: a root, an intermediate carrying
/// 1.2.840.113635.100.6.2.1 and a P-256 leaf carrying 1.2.840.113635.100.6.11.1, with Apple's names by default.
///
/// The simulator signs with one (its roots configured in StoreKeeper); tests and `storekeeper-lab bench` make
/// throwaway ones, and look-alike chains (Apple's names and OIDs, another key) to prove they are refused.
public struct SigningAuthority: Sendable {
    /// The root certificate.
    public let root: Certificate
    /// The intermediate certificate.
    public let intermediate: Certificate
    /// The leaf (signing) certificate.
    public let leaf: Certificate
    /// The leaf's private key.
    public let leafKey: P256.Signing.PrivateKey

    /// The chain as DER, leaf first.
    public var chainDER: [[UInt8]] { [leaf, intermediate, root].map(Self.der) }

    /// Apple's names for the three levels.
    public static let appleRootName = try! DistinguishedName {
        CommonName("Apple Root CA - G3")
        OrganizationalUnitName("Apple Certification Authority")
        OrganizationName("Apple Inc.")
        CountryName("US")
    }
    /// Apple's WWDR G6 intermediate name.
    public static let appleIntermediateName = try! DistinguishedName {
        CommonName("Apple Worldwide Developer Relations Certification Authority")
        OrganizationalUnitName("G6")
        OrganizationName("Apple Inc.")
        CountryName("US")
    }
    /// Apple's JWS signing leaf name.
    public static let appleLeafName = try! DistinguishedName {
        CommonName("Prod ECC Mac App Store and iTunes Store Receipt Signing")
        OrganizationalUnitName("Apple Worldwide Developer Relations")
        OrganizationName("Apple Inc.")
        CountryName("US")
    }

    /// Wraps an existing chain and leaf key (e.g. one read back from disk).
    /// - Parameters:
    ///   - root: The root certificate.
    ///   - intermediate: The intermediate certificate.
    ///   - leaf: The leaf certificate.
    ///   - leafKey: The leaf's private key.
    public init(root: Certificate, intermediate: Certificate, leaf: Certificate, leafKey: P256.Signing.PrivateKey) {
        self.root = root
        self.intermediate = intermediate
        self.leaf = leaf
        self.leafKey = leafKey
    }

    /// Generates a chain.
    /// - Parameters:
    ///   - notBefore: Start of every certificate's validity.
    ///   - notAfter: End of every certificate's validity.
    ///   - withAppleExtensions: Whether to add Apple's marker OIDs.
    public init(
        notBefore: Date = Date(timeIntervalSince1970: 1_500_000_000),
        notAfter: Date = Date(timeIntervalSince1970: 2_200_000_000),
        withAppleExtensions: Bool = true,
        rootName: DistinguishedName = SigningAuthority.appleRootName,
        intermediateName: DistinguishedName = SigningAuthority.appleIntermediateName
    ) throws {
        let rootKey = P384.Signing.PrivateKey()
        let intermediateKey = P256.Signing.PrivateKey()
        let leafKey = P256.Signing.PrivateKey()
        // Key identifiers as Apple's chain carries them: a subject key identifier on every certificate, an
        // authority key identifier (the issuer's) below the root. Strict verifiers (Apple's own library) need them.
        let rootIdentifier = SubjectKeyIdentifier(hash: .init(rootKey.publicKey))
        let intermediateIdentifier = SubjectKeyIdentifier(hash: .init(intermediateKey.publicKey))
        root = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(rootKey.publicKey),
            notValidBefore: notBefore, notValidAfter: notAfter,
            issuer: rootName, subject: rootName, signatureAlgorithm: .ecdsaWithSHA384,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                rootIdentifier
            },
            issuerPrivateKey: .init(rootKey))
        intermediate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(intermediateKey.publicKey),
            notValidBefore: notBefore, notValidAfter: notAfter,
            issuer: rootName, subject: intermediateName, signatureAlgorithm: .ecdsaWithSHA384,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                AuthorityKeyIdentifier(keyIdentifier: rootIdentifier.keyIdentifier)
                intermediateIdentifier
                if withAppleExtensions {
                    Certificate.Extension(
                        oid: [1, 2, 840, 113635, 100, 6, 2, 1], critical: false, value: [0x05, 0x00])
                }
            },
            issuerPrivateKey: .init(rootKey))
        leaf = try Self.leaf(
            key: leafKey, issuer: intermediateName, issuerKey: .init(intermediateKey),
            notBefore: notBefore, notAfter: notAfter, withAppleExtension: withAppleExtensions)
        self.leafKey = leafKey
    }

    /// Makes a leaf certificate issued under `issuer`'s name and signed by `issuerKey`.
    /// - Parameters:
    ///   - key: The leaf key.
    ///   - issuer: The issuer name written in the certificate.
    ///   - issuerKey: The key that really signs it.
    ///   - notBefore: Validity start.
    ///   - notAfter: Validity end.
    ///   - withAppleExtension: Whether to add 1.2.840.113635.100.6.11.1.
    /// - Returns: The certificate.
    public static func leaf(
        key: P256.Signing.PrivateKey, issuer: DistinguishedName, issuerKey: Certificate.PrivateKey,
        notBefore: Date = Date(timeIntervalSince1970: 1_500_000_000),
        notAfter: Date = Date(timeIntervalSince1970: 2_200_000_000),
        withAppleExtension: Bool = true
    ) throws -> Certificate {
        try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(key.publicKey),
            notValidBefore: notBefore, notValidAfter: notAfter,
            issuer: issuer, subject: appleLeafName, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                AuthorityKeyIdentifier(keyIdentifier: SubjectKeyIdentifier(hash: issuerKey.publicKey).keyIdentifier)
                SubjectKeyIdentifier(hash: .init(key.publicKey))
                if withAppleExtension {
                    Certificate.Extension(
                        oid: [1, 2, 840, 113635, 100, 6, 11, 1], critical: false, value: [0x05, 0x00])
                }
            },
            issuerPrivateKey: issuerKey)
    }

    /// Signs a JSON payload as an App Store JWS with this chain.
    /// - Parameter payload: The payload JSON.
    /// - Returns: A compact JWS.
    public func sign(_ payload: [UInt8]) throws -> String {
        try JWSSigner.sign(payload, chain: chainDER, key: leafKey)
    }

    /// DER bytes of a certificate.
    public static func der(_ certificate: Certificate) -> [UInt8] {
        var serializer = DER.Serializer()
        try! serializer.serialize(certificate)
        return serializer.serializedBytes
    }
}
