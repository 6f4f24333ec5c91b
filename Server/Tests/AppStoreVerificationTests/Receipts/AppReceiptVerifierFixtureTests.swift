import AppStoreModels
import AppStoreVerification
import Foundation
import TestSupport
import Testing

/// Every real receipt in Tests/Fixtures verifies to the right root and yields the facts in MANIFEST.md.
@Suite struct AppReceiptVerifierFixtureTests {
    struct Expected: Sendable, CustomStringConvertible {
        let file: String
        let bundleID: String
        let inAppCount: Int
        let receiptType: String
        let created: String
        let algorithm: String
        let xcode: Bool
        var description: String { file }
    }

    static let receipts: [Expected] = [
        .init(
            file: "production_ios_pure_2024.b64", bundleID: "org.getpure.pure-iphone", inAppCount: 4,
            receiptType: "Production", created: "2024-02-23T17:27:16Z", algorithm: "sha256WithRSAEncryption",
            xcode: false),
        .init(
            file: "sandbox_ios_nutcall_sha1_2020.b64", bundleID: "com.nutcall.alert", inAppCount: 187,
            receiptType: "ProductionSandbox", created: "2020-05-06T18:28:49Z", algorithm: "sha1WithRSAEncryption",
            xcode: false),
        .init(
            file: "sandbox_ios_revenuecat_sampleapp_2020.b64", bundleID: "com.revenuecat.sampleapp", inAppCount: 9,
            receiptType: "ProductionSandbox", created: "2020-07-22T17:39:08Z", algorithm: "sha1WithRSAEncryption",
            xcode: false),
        .init(
            file: "sandbox_ios_mindnode_no_iap_2017.b64", bundleID: "com.mindnode.mindnodetouch", inAppCount: 0,
            receiptType: "ProductionSandbox", created: "2017-09-11T09:38:34Z", algorithm: "sha1WithRSAEncryption",
            xcode: false),
        .init(
            file: "production_terminal_one_subscription_2018.b64", bundleID: "com.9to5mac.terminal", inAppCount: 1,
            receiptType: "Production", created: "2018-03-26T20:18:13Z", algorithm: "sha1WithRSAEncryption", xcode: false
        ),
        .init(
            file: "xcode_backyardbirds_with_transaction_2023.b64",
            bundleID: "com.example.naturelab.backyardbirds.example",
            inAppCount: 1, receiptType: "Xcode", created: "2023-10-19T01:45:40Z", algorithm: "sha256WithRSAEncryption",
            xcode: true),
        .init(
            file: "xcode_dailydictionary_empty_2021.b64", bundleID: "com.anthonymayo.DailyDictionary", inAppCount: 0,
            receiptType: "Xcode", created: "2021-07-29T13:46:33Z", algorithm: "sha256WithRSAEncryption", xcode: true),
    ]

    @Test("a real receipt verifies and decodes to its manifest facts", arguments: receipts)
    func verifiesFixture(_ expected: Expected) async throws {
        let verifier = try AppReceiptVerifier(configuration: .init(allowsXcodeReceipts: expected.xcode))
        let verified = try await verifier.verify(base64: try Fixtures.text("receipts/\(expected.file)"))
        #expect(verified.receipt.bundleID == expected.bundleID)
        #expect(verified.receipt.inAppPurchases.count == expected.inAppCount)
        #expect(verified.receipt.receiptType == expected.receiptType)
        #expect(verified.receipt.creationDate == Fixtures.date(expected.created))
        #expect(verified.signatureAlgorithm == expected.algorithm)
        #expect(verified.isXcodeReceipt == expected.xcode)
    }

    @Test("Xcode receipts are refused unless Xcode receipts are allowed")
    func xcodeNeedsOptIn() async throws {
        let verifier = try AppReceiptVerifier()
        for file in ["xcode_backyardbirds_with_transaction_2023.b64", "xcode_dailydictionary_empty_2021.b64"] {
            await #expect(throws: VerificationError(.untrustedRoot, "")) {
                _ = try await verifier.verify(base64: try Fixtures.text("receipts/\(file)"))
            }
        }
    }
}
