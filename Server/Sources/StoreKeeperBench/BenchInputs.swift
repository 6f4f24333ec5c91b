import AppStoreSigning
public import AppStoreVerification
import Crypto
import Foundation
import StoreKeeperWire
import X509
import _CryptoExtras

/// What `storekeeper-lab bench` measures: a token and a receipt, from files or signed on the spot.
public struct BenchInputs {
    /// A compact JWS (signed transaction).
    public var token: String
    /// Its leaf certificate's public key (SubjectPublicKeyInfo DER).
    public var leafSPKI: [UInt8]
    /// What verifies the token (its root).
    public var jwsConfiguration: AppStoreSignedDataVerifier.Configuration
    /// A receipt (PKCS#7 DER).
    public var receipt: [UInt8]
    /// What verifies the receipt (its root).
    public var receiptConfiguration: AppReceiptVerifier.Configuration
    /// Where the inputs came from, for the report.
    public var description: String

    /// The inputs from `files` (a JWS and/or a base64 receipt); what is missing is signed on the spot.
    /// - Throws: ``BenchInputError`` naming a file that is neither.
    public static func load(_ files: [String]) throws -> BenchInputs {
        var token: String?
        var receipt: [UInt8]?
        var names: [String] = []
        for path in files {
            let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            if text.split(separator: ".", omittingEmptySubsequences: false).count == 3 {
                token = text
            } else if let der = Base64.decode(text, ignoringWhitespace: true) {
                receipt = der
            } else {
                throw BenchInputError(message: "\(path) is neither a compact JWS nor a base64 receipt")
            }
            names.append(URL(fileURLWithPath: path).lastPathComponent)
        }
        var jwsConfiguration = AppStoreSignedDataVerifier.Configuration()
        var receiptConfiguration = AppReceiptVerifier.Configuration()
        if token == nil {
            let authority = try SigningAuthority()
            let payload =
                #"{"transactionId":"1","originalTransactionId":"1","productId":"bench","signedDate":1700000000000}"#
            token = try authority.sign(Array(payload.utf8))
            jwsConfiguration.rootCertificates = [authority.chainDER[2]]
            names.append("self-signed JWS")
        }
        if receipt == nil {
            let signer = try ReceiptSigner.lookAlike()
            receipt = try signer.sign(SyntheticReceipt.payload(purchases: 187))
            receiptConfiguration.rootCertificates = [SigningAuthority.der(signer.certificates[2])]
            names.append("self-signed 187-entry receipt")
        }
        let jws = try CompactJWS(token!)
        guard let leafDER = jws.certificateChain.first else {
            throw BenchInputError(message: "the JWS has no x5c certificate")
        }
        let leaf = try Certificate(derEncoded: leafDER)
        guard let key = P256.Signing.PublicKey(leaf.publicKey) else {
            throw BenchInputError(message: "the JWS leaf key is not P-256")
        }
        return BenchInputs(
            token: token!, leafSPKI: Array(key.derRepresentation), jwsConfiguration: jwsConfiguration,
            receipt: receipt!, receiptConfiguration: receiptConfiguration, description: names.joined(separator: ", "))
    }
}

/// A bench input that cannot be used.
public struct BenchInputError: Error, CustomStringConvertible {
    /// What is wrong.
    public let message: String
    /// The message.
    public var description: String { message }
}
