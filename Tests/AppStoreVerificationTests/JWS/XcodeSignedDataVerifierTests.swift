import AppStoreModels
import AppStoreVerification
import Foundation
import TestSupport
import Testing

/// Xcode-signed data verifies only through the separately constructed Xcode verifier.
@Suite struct XcodeSignedDataVerifierTests {
    let transactionPath = "jws/xcode_transaction_autorenewable_2023.jws"
    let renewalPath = "jws/xcode_renewalinfo_2023.jws"

    @Test("the Apple verifier refuses Xcode tokens")
    func appleVerifierRefuses() async throws {
        let apple = try AppStoreSignedDataVerifier()
        for path in [transactionPath, renewalPath] {
            await #expect(throws: VerificationError(.xcodeNotAllowed, "")) { _ = try await apple.verify(try Fixtures.text(path)) }
        }
    }

    @Test("the Xcode verifier accepts them and keeps fractional-millisecond dates")
    func xcodeVerifierAccepts() async throws {
        let xcode = XcodeSignedDataVerifier()
        let transaction = try await xcode.verifyTransaction(try Fixtures.text(transactionPath))
        #expect(transaction.environment == .xcode)
        #expect(transaction.productId == "pass.premium")
        #expect(transaction.offerType == .introductory)
        #expect(transaction.isUpgraded == false)
        #expect(abs(transaction.signedDate!.timeIntervalSince1970 - 1_697_679_936.056485) < 0.000_001)
        let renewal = try await xcode.verifyRenewalInfo(try Fixtures.text(renewalPath))
        #expect(renewal.autoRenewProductId == "pass.premium")
        #expect(renewal.renewalDate != nil)
    }

    @Test("the Xcode verifier refuses Apple's three-certificate tokens and forged signatures")
    func xcodeVerifierRefusesOthers() async throws {
        let xcode = XcodeSignedDataVerifier()
        await #expect(throws: VerificationError(.wrongChainLength, "")) {
            _ = try await xcode.verify(try Fixtures.text("jws/notification_TEST_sandbox_2022.jws"))
        }
        await #expect(throws: VerificationError(.invalidSignature, "")) {
            _ = try await xcode.verify(JWSTamper.editedPayload(try Fixtures.text(transactionPath)))
        }
    }
}
