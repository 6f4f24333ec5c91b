import AppStoreSigning
import AppStoreVerification
import EvidenceInspection
import Foundation
import TestSupport
import Testing

/// The inspector recognises and judges every fixture correctly.
@Suite struct EvidenceInspectorTests {
    struct Case: Sendable, CustomStringConvertible {
        let file: String
        let kind: EvidenceKind
        let valid: Bool
        let validWithXcode: Bool
        var description: String { file }
    }

    static let cases: [Case] = [
        .init(file: "receipts/production_ios_pure_2024.b64", kind: .receipt, valid: true, validWithXcode: true),
        .init(file: "receipts/sandbox_ios_nutcall_sha1_2020.b64", kind: .receipt, valid: true, validWithXcode: true),
        .init(
            file: "receipts/sandbox_ios_revenuecat_sampleapp_2020.b64", kind: .receipt, valid: true,
            validWithXcode: true),
        .init(file: "receipts/sandbox_ios_mindnode_no_iap_2017.b64", kind: .receipt, valid: true, validWithXcode: true),
        .init(
            file: "receipts/production_terminal_one_subscription_2018.b64", kind: .receipt, valid: true,
            validWithXcode: true),
        .init(
            file: "receipts/xcode_backyardbirds_with_transaction_2023.b64", kind: .receipt, valid: false,
            validWithXcode: true),
        .init(
            file: "receipts/xcode_dailydictionary_empty_2021.b64", kind: .receipt, valid: false, validWithXcode: true),
        .init(file: "jws/notification_TEST_sandbox_2022.jws", kind: .notificationV2, valid: true, validWithXcode: true),
        .init(
            file: "jws/renewalinfo_sandbox_ringalarm_2023.jws", kind: .jwsRenewalInfo, valid: true, validWithXcode: true
        ),
        .init(
            file: "jws/transaction_consumable_sandbox_goodheart_2025.jws", kind: .jwsTransaction, valid: true,
            validWithXcode: true),
        .init(
            file: "jws/xcode_transaction_autorenewable_2023.jws", kind: .jwsTransaction, valid: false,
            validWithXcode: true),
        .init(file: "jws/xcode_renewalinfo_2023.jws", kind: .jwsRenewalInfo, valid: false, validWithXcode: true),
        .init(
            file: "json/notificationV1_DID_CHANGE_RENEWAL_STATUS_sandbox_twigano.json", kind: .notificationV1,
            valid: true, validWithXcode: true),
        .init(
            file: "json/verifyReceipt_production_redacted_twigano.json", kind: .verifyReceiptResponse, valid: true,
            validWithXcode: true),
        .init(
            file: "json/verifyReceipt_sandbox_revenuecat_sampleapp.json", kind: .verifyReceiptResponse, valid: true,
            validWithXcode: true),
        .init(
            file: "json/verifyReceipt_status_21002.json", kind: .verifyReceiptResponse, valid: false,
            validWithXcode: false),
        .init(
            file: "json/verifyReceipt_status_21006_legacy_ios6_style.json", kind: .verifyReceiptResponse, valid: true,
            validWithXcode: true),
    ]

    @Test("verdict and kind for every fixture, with and without --allow-xcode", arguments: cases)
    func verdict(_ test: Case) async throws {
        let input = Array(try Fixtures.data(test.file))
        let strict = await (try EvidenceInspector()).inspect(input)
        #expect(strict.kind == test.kind)
        #expect(strict.valid == test.valid, "\(strict.error?.message ?? "")")
        #expect((strict.error == nil) == test.valid)
        var configuration = EvidenceInspector.Configuration()
        configuration.allowsXcode = true
        let lenient = try await EvidenceInspector(configuration: configuration).inspect(input)
        #expect(lenient.valid == test.validWithXcode, "\(lenient.error?.message ?? "")")
        if test.validWithXcode { #expect(lenient.payload != nil) }
    }

    @Test("a bare signedPayload and a {signedPayload} body are the same V2 notification")
    func notificationBody() async throws {
        let token = try Fixtures.text("jws/notification_TEST_sandbox_2022.jws")
        let report = await (try EvidenceInspector()).inspect(Array("{\"signedPayload\":\"\(token)\"}".utf8))
        #expect(report.kind == .notificationV2)
        #expect(report.valid)
        let payload = try #require(report.payload?.value as? [String: Any])
        #expect(payload["notificationUUID"] as? String == "5e09dcfc-205e-4ea1-9883-96676f394992")
    }

    @Test("nested JWS in a notification are decoded in place")
    func nestedDecoded() async throws {
        let authority = try SigningAuthority()
        let transaction = try authority.sign(
            Array(
                #"{"transactionId":"7","originalTransactionId":"7","productId":"pro","bundleId":"com.example","signedDate":1700000000000}"#
                    .utf8))
        let notification = try authority.sign(
            Array(
                """
                {"notificationType":"SUBSCRIBED","subtype":"INITIAL_BUY","notificationUUID":"u-1","version":"2.0",\
                "signedDate":1700000000000,"data":{"bundleId":"com.example","environment":"Sandbox","signedTransactionInfo":"\(transaction)"}}
                """.utf8))
        var configuration = EvidenceInspector.Configuration()
        configuration.additionalRoots = [authority.chainDER[2]]
        let report = try await EvidenceInspector(configuration: configuration).inspect(Array(notification.utf8))
        #expect(report.valid)
        let data = try #require((report.payload?.value as? [String: Any])?["data"] as? [String: Any])
        #expect((data["signedTransactionInfo"] as? [String: Any])?["productId"] as? String == "pro")
        // Without the root configured, the same evidence is refused.
        let strict = await (try EvidenceInspector()).inspect(Array(notification.utf8))
        #expect(!strict.valid)
        #expect(strict.error?.code == .verification(.untrustedRoot))
    }

    @Test(
        "garbage is reported, never thrown",
        arguments: ["", "   ", "{", "{}", "[1,2]", "a.b.c", "!!!", "{\"status\":\"x\"}"])
    func garbage(_ text: String) async throws {
        let report = await (try EvidenceInspector()).inspect(Array(text.utf8))
        #expect(!report.valid)
        #expect(report.error != nil)
    }

    @Test("the V1 shared secret never appears in the report")
    func secretRedacted() async throws {
        var body =
            try JSONSerialization.jsonObject(
                with: try Fixtures.data("json/notificationV1_DID_CHANGE_RENEWAL_STATUS_sandbox_twigano.json"))
            as! [String: Any]
        body["password"] = "top-secret-shared"
        let input = try JSONSerialization.data(withJSONObject: body)
        let report = await (try EvidenceInspector()).inspect(Array(input))
        #expect(!(try report.jsonText()).contains("top-secret-shared"))
        #expect(!report.summary.contains("top-secret-shared"))
    }
}
