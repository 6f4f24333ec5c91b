import Crypto
public import Foundation
import SwiftASN1
public import X509
public import _CryptoExtras

/// Builds PKCS#7 app receipts in Apple's layout: `SignedData` with the payload as attached content, the
/// certificates, and one `SignerInfo` (issuer and serial, RSA PKCS#1 v1.5, no signed attributes).
public struct ReceiptSigner: Sendable {
    /// Certificates carried in the message, signer first.
    public let certificates: [Certificate]
    /// The signer's key.
    public let key: _RSA.Signing.PrivateKey
    /// SHA-256 (G5 style) or SHA-1 (legacy).
    public let usesSHA256: Bool

    /// Wraps a chain and key.
    public init(certificates: [Certificate], key: _RSA.Signing.PrivateKey, usesSHA256: Bool = true) {
        self.certificates = certificates
        self.key = key
        self.usesSHA256 = usesSHA256
    }

    /// A fresh RSA chain named like Apple's receipt chain (Apple Root CA → WWDR → receipt signing), with
    /// a root that nobody pins: the look-alike that verifiers must refuse.
    public static func lookAlike(notBefore: Date = Date(timeIntervalSince1970: 1_000_000_000)) throws -> ReceiptSigner {
        try generate(
            rootName: DistinguishedName {
                CountryName("US"); OrganizationName("Apple Inc.");
                OrganizationalUnitName("Apple Certification Authority")
                CommonName("Apple Root CA")
            },
            intermediateName: DistinguishedName {
                CountryName("US"); OrganizationName("Apple Inc.");
                OrganizationalUnitName("Apple Worldwide Developer Relations")
                CommonName("Apple Worldwide Developer Relations Certification Authority")
            },
            notBefore: notBefore)
    }

    /// A fresh RSA-2048 chain (root → intermediate → receipt-signing leaf) with the given names.
    /// - Parameters:
    ///   - rootName: The root's subject.
    ///   - intermediateName: The intermediate's subject.
    ///   - notBefore: Start of validity (every certificate is valid until 2039).
    ///   - withAppleMarkers: Whether the leaf and intermediate carry Apple's marker extensions, as Apple's receipt
    ///     chain does (tests forge chains without them).
    ///   - leafKeyUsage: The leaf's key usage (Apple's: `digitalSignature`; `nil`: none).
    /// - Returns: A signer holding the leaf key and the three certificates.
    public static func generate(
        rootName: DistinguishedName, intermediateName: DistinguishedName,
        notBefore: Date = Date(timeIntervalSince1970: 1_000_000_000), withAppleMarkers: Bool = true,
        leafKeyUsage: KeyUsage? = KeyUsage(digitalSignature: true)
    ) throws -> ReceiptSigner {
        let rootKey = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let intermediateKey = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let leafKey = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let notAfter = Date(timeIntervalSince1970: 2_200_000_000)
        let rootIdentifier = SubjectKeyIdentifier(hash: .init(rootKey.publicKey))
        let root = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(rootKey.publicKey), notValidBefore: notBefore,
            notValidAfter: notAfter, issuer: rootName, subject: rootName, signatureAlgorithm: .sha256WithRSAEncryption,
            extensions: try .init {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                rootIdentifier
            },
            issuerPrivateKey: .init(rootKey))
        let intermediate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(intermediateKey.publicKey), notValidBefore: notBefore,
            notValidAfter: notAfter, issuer: rootName, subject: intermediateName,
            signatureAlgorithm: .sha256WithRSAEncryption,
            extensions: try .init {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                AuthorityKeyIdentifier(keyIdentifier: rootIdentifier.keyIdentifier)
                SubjectKeyIdentifier(hash: .init(intermediateKey.publicKey))
                if withAppleMarkers {
                    Certificate.Extension(
                        oid: [1, 2, 840, 113635, 100, 6, 2, 1], critical: false, value: [0x05, 0x00])
                }
            },
            issuerPrivateKey: .init(rootKey))
        let leaf = try leafCertificate(
            key: leafKey, issuer: intermediateName, issuerKey: intermediateKey, notBefore: notBefore,
            withAppleMarker: withAppleMarkers, keyUsage: leafKeyUsage)
        return ReceiptSigner(certificates: [leaf, intermediate, root], key: leafKey)
    }

    /// A receipt-signing leaf named under `issuer` and signed by `issuerKey`.
    /// - Parameters:
    ///   - key: The leaf's key.
    ///   - issuer: The issuer name written in it.
    ///   - issuerKey: The key that signs it.
    ///   - notBefore: Start of validity.
    ///   - withAppleMarker: Whether it carries Apple's marker 1.2.840.113635.100.6.11.1.
    ///   - keyUsage: Its key usage (Apple's: `digitalSignature`; `nil`: none).
    public static func leafCertificate(
        key: _RSA.Signing.PrivateKey, issuer: DistinguishedName, issuerKey: _RSA.Signing.PrivateKey,
        notBefore: Date = Date(timeIntervalSince1970: 1_000_000_000), withAppleMarker: Bool = true,
        keyUsage: KeyUsage? = KeyUsage(digitalSignature: true)
    ) throws -> Certificate {
        let leafName = try DistinguishedName {
            CommonName("Mac App Store and iTunes Store Receipt Signing")
            OrganizationalUnitName("Apple Worldwide Developer Relations"); OrganizationName("Apple Inc.");
            CountryName("US")
        }
        return try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(key.publicKey), notValidBefore: notBefore,
            notValidAfter: Date(timeIntervalSince1970: 2_200_000_000), issuer: issuer, subject: leafName,
            signatureAlgorithm: .sha256WithRSAEncryption,
            extensions: try .init {
                Critical(BasicConstraints.notCertificateAuthority)
                AuthorityKeyIdentifier(
                    keyIdentifier: SubjectKeyIdentifier(hash: .init(issuerKey.publicKey)).keyIdentifier)
                SubjectKeyIdentifier(hash: .init(key.publicKey))
                if let keyUsage { Critical(keyUsage) }
                if withAppleMarker {
                    Certificate.Extension(
                        oid: [1, 2, 840, 113635, 100, 6, 11, 1], critical: false, value: [0x05, 0x00])
                }
            },
            issuerPrivateKey: .init(issuerKey))
    }

    /// Signs a payload into a PKCS#7 message.
    /// - Parameters:
    ///   - payload: The receipt payload (a DER `SET OF ReceiptAttribute`).
    ///   - extraCertificates: DER certificates to carry after the chain's own (e.g. Apple's real ones).
    /// - Returns: The DER message.
    public func sign(_ payload: [UInt8], carrying extraCertificates: [[UInt8]] = []) throws -> [UInt8] {
        let digestOID = usesSHA256 ? "2.16.840.1.101.3.4.2.1" : "1.3.14.3.2.26"
        let signature: _RSA.Signing.RSASignature =
            usesSHA256
            ? try key.signature(for: SHA256.hash(data: payload), padding: .insecurePKCS1v1_5)
            : try key.signature(for: Insecure.SHA1.hash(data: payload), padding: .insecurePKCS1v1_5)
        let signer = certificates[0]
        var issuerSerializer = DER.Serializer()
        try issuerSerializer.serialize(signer.issuer)
        let digestAlgorithm = DERWriter.sequence([DERWriter.objectIdentifier(digestOID), DERWriter.null])
        let signerInfo = DERWriter.sequence([
            DERWriter.integer(1),
            DERWriter.sequence([issuerSerializer.serializedBytes, DERWriter.unsignedInteger(signer.serialNumber.bytes)]
            ),
            digestAlgorithm,
            DERWriter.sequence([DERWriter.objectIdentifier("1.2.840.113549.1.1.1"), DERWriter.null]),
            DERWriter.octetString(Array(signature.rawRepresentation)),
        ])
        let carried = certificates.map(SigningAuthority.der) + extraCertificates
        let signedData = DERWriter.sequence([
            DERWriter.integer(1),
            DERWriter.set([digestAlgorithm]),
            DERWriter.sequence([
                DERWriter.objectIdentifier("1.2.840.113549.1.7.1"),
                DERWriter.context(0, DERWriter.octetString(payload)),
            ]),
            DERWriter.context(0, carried.flatMap { $0 }),
            DERWriter.set([signerInfo]),
        ])
        return DERWriter.sequence([
            DERWriter.objectIdentifier("1.2.840.113549.1.7.2"), DERWriter.context(0, signedData),
        ])
    }
}
