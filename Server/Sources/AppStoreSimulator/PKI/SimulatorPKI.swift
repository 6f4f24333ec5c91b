public import AppStoreSigning
import Crypto
import FilePermissions
public import Foundation
import X509
import _CryptoExtras

/// The simulator's own certificate authorities, shaped like Apple's: an ECDSA chain for JWS (root,
/// intermediate with 1.2.840.113635.100.6.2.1, P-256 leaf with 1.2.840.113635.100.6.11.1) and an RSA chain for
/// receipts. Generated on first start and kept as PEM under `<data>/pki`, so a restarted simulator signs with
/// the same roots StoreKeeper was configured to trust.
public struct SimulatorPKI: Sendable {
    /// The JWS signing chain.
    public let signedData: SigningAuthority
    /// The receipt signing chain.
    public let receipts: ReceiptSigner

    /// DER of the JWS root: configure StoreKeeper's verifiers with it.
    public var signedDataRootDER: [UInt8] { SigningAuthority.der(signedData.root) }
    /// DER of the receipt root.
    public var receiptRootDER: [UInt8] { SigningAuthority.der(receipts.certificates[2]) }

    /// Wraps existing chains.
    public init(signedData: SigningAuthority, receipts: ReceiptSigner) {
        self.signedData = signedData
        self.receipts = receipts
    }

    /// Generates fresh chains named "StoreKeeper Simulator".
    public static func generate() throws -> SimulatorPKI {
        let root = try DistinguishedName {
            CommonName("StoreKeeper Simulator Root CA"); OrganizationName("StoreKeeper"); CountryName("US")
        }
        let intermediate = try DistinguishedName {
            CommonName("StoreKeeper Simulator Worldwide Developer Relations CA"); OrganizationalUnitName("G6")
            OrganizationName("StoreKeeper"); CountryName("US")
        }
        let receiptRoot = try DistinguishedName {
            CommonName("StoreKeeper Simulator Receipt Root CA"); OrganizationName("StoreKeeper"); CountryName("US")
        }
        let receiptIntermediate = try DistinguishedName {
            CommonName("StoreKeeper Simulator Receipt CA"); OrganizationName("StoreKeeper"); CountryName("US")
        }
        return SimulatorPKI(
            signedData: try SigningAuthority(rootName: root, intermediateName: intermediate),
            receipts: try ReceiptSigner.generate(rootName: receiptRoot, intermediateName: receiptIntermediate))
    }

    /// Loads the chains from `directory`, generating and saving them on first use. The folder is created 0700
    /// and the private keys written 0600, whatever the umask; a key file others may read is refused.
    /// - Parameter directory: Where the PEM files live (created if missing).
    /// - Returns: The PKI.
    /// - Throws: File or parsing errors naming the file; ``PrivateFileError`` for a key file others may read.
    public static func loadOrCreate(in directory: URL) throws -> SimulatorPKI {
        let files = [
            "jws-root.pem", "jws-intermediate.pem", "jws-leaf.pem", "jws-leaf-key.pem",
            "receipt-root.pem", "receipt-intermediate.pem", "receipt-leaf.pem", "receipt-leaf-key.pem",
        ]
        let urls = files.map { directory.appendingPathComponent($0) }
        if urls.allSatisfy({ FileManager.default.fileExists(atPath: $0.path) }) {
            for url in urls where url.lastPathComponent.hasSuffix("-key.pem") {
                try PrivateFiles.requirePrivate(url.path)
            }
            let text = try urls.map { try String(contentsOf: $0, encoding: .utf8) }
            let authority = SigningAuthority(
                root: try Certificate(pemEncoded: text[0]), intermediate: try Certificate(pemEncoded: text[1]),
                leaf: try Certificate(pemEncoded: text[2]),
                leafKey: try P256.Signing.PrivateKey(pemRepresentation: text[3]))
            let signer = ReceiptSigner(
                certificates: [
                    try Certificate(pemEncoded: text[6]), try Certificate(pemEncoded: text[5]),
                    try Certificate(pemEncoded: text[4]),
                ],
                key: try _RSA.Signing.PrivateKey(pemRepresentation: text[7]))
            return SimulatorPKI(signedData: authority, receipts: signer)
        }
        let pki = try generate()
        try PrivateFiles.createDirectory(directory.path)
        let contents = [
            try pki.signedData.root.serializeAsPEM().pemString,
            try pki.signedData.intermediate.serializeAsPEM().pemString,
            try pki.signedData.leaf.serializeAsPEM().pemString, pki.signedData.leafKey.pemRepresentation,
            try pki.receipts.certificates[2].serializeAsPEM().pemString,
            try pki.receipts.certificates[1].serializeAsPEM().pemString,
            try pki.receipts.certificates[0].serializeAsPEM().pemString, pki.receipts.key.pemRepresentation,
        ]
        for (url, text) in zip(urls, contents) {
            if url.lastPathComponent.hasSuffix("-key.pem") {
                try PrivateFiles.write(Data(text.utf8), to: url.path)
            } else {
                try Data(text.utf8).write(to: url, options: .atomic)
            }
        }
        try Data(pki.signedDataRootDER).write(to: directory.appendingPathComponent("jws-root.der"))
        try Data(pki.receiptRootDER).write(to: directory.appendingPathComponent("receipt-root.der"))
        return pki
    }
}
