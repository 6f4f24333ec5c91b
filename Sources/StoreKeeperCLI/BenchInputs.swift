import AppStoreSigning
import AppStoreVerification
import Crypto
import Foundation
import X509
import _CryptoExtras

/// What `storekeeper bench` measures: a token and a receipt, from files or signed on the spot.
struct BenchInputs {
    var token: String
    var leafSPKI: [UInt8]
    var jwsConfiguration: AppStoreSignedDataVerifier.Configuration
    var receipt: [UInt8]
    var receiptConfiguration: AppReceiptVerifier.Configuration
    var description: String

    static func load(_ files: [String]) throws -> BenchInputs {
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

struct BenchInputError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
