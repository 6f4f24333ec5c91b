import AppStoreSigning
import AppStoreVerification
import Foundation
import StoreKeeperWire
import TestSupport
import Testing
import X509
import _CryptoExtras

/// Every way of forging a real receipt is refused with its own error code, and changes nothing.
@Suite struct AppReceiptTamperTests {
    static let receipts = [
        "production_ios_pure_2024.b64", "sandbox_ios_nutcall_sha1_2020.b64",
        "sandbox_ios_revenuecat_sampleapp_2020.b64",
        "sandbox_ios_mindnode_no_iap_2017.b64", "production_terminal_one_subscription_2018.b64",
        "xcode_backyardbirds_with_transaction_2023.b64", "xcode_dailydictionary_empty_2021.b64",
    ]

    static func der(_ file: String) throws -> [UInt8] {
        Base64.decode(try Fixtures.text("receipts/\(file)"))!
    }

    static func replacing(_ needle: [UInt8], in bytes: [UInt8], _ change: (inout [UInt8], Int) -> Void) -> [UInt8] {
        var copy = bytes
        for start in 0...(bytes.count - needle.count) where bytes[start..<(start + needle.count)].elementsEqual(needle)
        {
            change(&copy, start)
            return copy
        }
        preconditionFailure("needle not found")
    }

    func verifier(_ file: String) throws -> AppReceiptVerifier {
        try AppReceiptVerifier(configuration: .init(allowsXcodeReceipts: file.hasPrefix("xcode")))
    }

    func expectRefusal(_ bytes: [UInt8], _ file: String, _ code: VerificationError.Code, _ what: String) async throws {
        do {
            _ = try await verifier(file).verify(der: bytes)
            Issue.record("\(what) of \(file) was accepted")
        } catch let error as VerificationError {
            #expect(error.code == code, "\(what) of \(file): \(error)")
        }
    }

    @Test("one byte of receipt content changed", arguments: receipts)
    func contentByteChanged(_ file: String) async throws {
        let original = try Self.der(file)
        let bundleID = try await verifier(file).verify(der: original).receipt.bundleID!
        let forged = Self.replacing(Array(bundleID.utf8), in: original) { bytes, start in bytes[start] ^= 0x01 }
        try await expectRefusal(forged, file, .invalidSignature, "content byte changed")
    }

    @Test("one bit of the signature flipped", arguments: receipts)
    func signatureFlipped(_ file: String) async throws {
        let original = try Self.der(file)
        let signature = try PKCS7SignedData(bytes: original).signer.signature
        let forged = Self.replacing(signature, in: original) { bytes, start in bytes[start + 7] ^= 0x80 }
        try await expectRefusal(forged, file, .invalidSignature, "signature flipped")
    }

    @Test("truncated", arguments: receipts)
    func truncated(_ file: String) async throws {
        let original = try Self.der(file)
        try await expectRefusal(Array(original.prefix(original.count / 2)), file, .malformed, "truncation")
        try await expectRefusal(Array(original.dropLast(1)), file, .malformed, "last byte dropped")
    }

    @Test("the content re-signed by a look-alike chain with Apple's names", arguments: receipts.prefix(5))
    func lookAlikeChain(_ file: String) async throws {
        let content = Array(try PKCS7SignedData(bytes: try Self.der(file)).content)
        let forged = try ReceiptSigner.lookAlike().sign(content)
        try await expectRefusal(forged, file, .untrustedRoot, "look-alike chain")
    }

    @Test(
        "a chain to a pinned root is refused without Apple's marker OIDs or the leaf's digital-signature key usage",
        arguments: receipts.prefix(5))
    func lookAlikeWithoutMarkers(_ file: String) async throws {
        let content = Array(try PKCS7SignedData(bytes: try Self.der(file)).content)
        let names = try ReceiptSigner.lookAlike()
        let (rootName, intermediateName) = (names.certificates[2].subject, names.certificates[1].subject)
        let cases: [(String, ReceiptSigner, VerificationError.Code?)] = [
            (
                "with Apple's markers",
                try ReceiptSigner.generate(rootName: rootName, intermediateName: intermediateName), nil
            ),
            (
                "without the markers",
                try ReceiptSigner.generate(
                    rootName: rootName, intermediateName: intermediateName, withAppleMarkers: false),
                .missingAppleExtension
            ),
            (
                "with the markers, the leaf without key usage",
                try ReceiptSigner.generate(rootName: rootName, intermediateName: intermediateName, leafKeyUsage: nil),
                .missingAppleExtension
            ),
            (
                "with the markers, the leaf's key usage for certificates only",
                try ReceiptSigner.generate(
                    rootName: rootName, intermediateName: intermediateName, leafKeyUsage: KeyUsage(keyCertSign: true)),
                .missingAppleExtension
            ),
        ]
        for (name, signer, expected) in cases {
            // The forger's root is pinned, as a misconfigured server (or a stolen Apple root key) would have it: only
            // the markers are left to tell the chain from Apple's.
            let verifier = try AppReceiptVerifier(
                configuration: .init(rootCertificates: [SigningAuthority.der(signer.certificates[2])]))
            do {
                _ = try await verifier.verify(der: try signer.sign(content))
                #expect(expected == nil, "\(name) of \(file) was accepted")
            } catch let error as VerificationError {
                #expect(error.code == expected, "\(name) of \(file): \(error)")
            }
        }
    }

    @Test("a foreign leaf under Apple's real intermediate and root", arguments: receipts.prefix(5))
    func foreignLeaf(_ file: String) async throws {
        let message = try PKCS7SignedData(bytes: try Self.der(file))
        let apple = try message.certificates.map { try Certificate(derEncoded: $0) }
        let intermediate = apple.first {
            $0.subject.description.contains("Certification Authority") && $0.subject != $0.issuer
        }!
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let leaf = try ReceiptSigner.leafCertificate(
            key: key, issuer: intermediate.subject, issuerKey: try _RSA.Signing.PrivateKey(keySize: .bits2048))
        let forged = try ReceiptSigner(certificates: [leaf], key: key)
            .sign(Array(message.content), carrying: message.certificates.filter { $0 != message.certificates[0] })
        try await expectRefusal(forged, file, .invalidChain, "foreign leaf")
    }

    @Test("expectations: bundle id, app version and device hash")
    func expectations() async throws {
        let base64 = try Fixtures.text("receipts/sandbox_ios_revenuecat_sampleapp_2020.b64")
        let wrongBundle = try AppReceiptVerifier(configuration: .init(expectations: .init(bundleID: "com.other")))
        await #expect(throws: VerificationError(.unexpectedBundleID, "")) {
            _ = try await wrongBundle.verify(base64: base64)
        }
        let wrongVersion = try AppReceiptVerifier(configuration: .init(expectations: .init(appVersion: "999")))
        await #expect(throws: VerificationError(.unexpectedAppVersion, "")) {
            _ = try await wrongVersion.verify(base64: base64)
        }
        let wrongDevice = try AppReceiptVerifier(
            configuration: .init(expectations: .init(deviceIdentifier: [UInt8](repeating: 7, count: 16))))
        await #expect(throws: VerificationError(.deviceHashMismatch, "")) {
            _ = try await wrongDevice.verify(base64: base64)
        }
        let right = try AppReceiptVerifier(
            configuration: .init(expectations: .init(bundleID: "com.revenuecat.sampleapp", appVersion: "4")))
        #expect(try await right.verify(base64: base64).receipt.inAppPurchases.count == 9)
    }

    @Test("garbage is a typed error: not base64, empty, huge")
    func garbage() async throws {
        let verifier = try AppReceiptVerifier()
        await #expect(throws: VerificationError(.malformed, "")) {
            _ = try await verifier.verify(base64: "not base64!!")
        }
        await #expect(throws: VerificationError(.malformed, "")) { _ = try await verifier.verify(base64: "") }
        await #expect(throws: VerificationError(.malformed, "")) { _ = try await verifier.verify(base64: "AAAA") }
        let huge = String(repeating: "A", count: 6 * 1024 * 1024)
        await #expect(throws: VerificationError(.inputTooLarge, "")) { _ = try await verifier.verify(base64: huge) }
    }
}
