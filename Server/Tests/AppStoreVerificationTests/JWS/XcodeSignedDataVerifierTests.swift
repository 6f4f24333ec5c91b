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
            await #expect(throws: VerificationError(.xcodeNotAllowed, "")) {
                _ = try await apple.verify(try Fixtures.text(path))
            }
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

    @Test("self-signed data claiming Production or Sandbox is refused, whatever the expectations given")
    func xcodeVerifierRefusesOtherEnvironments() async throws {
        let xcode = XcodeSignedDataVerifier(
            expectations: .init(bundleID: "com.example.naturelab.backyardbirds.example"))
        #expect(xcode.expectations.environment == .xcode)
        let permissive = XcodeSignedDataVerifier(expectations: .init(environment: .production))
        #expect(permissive.expectations.environment == .xcode)
        for environment in ["Production", "Sandbox"] {
            let forged = try JWSTamper.selfSigned(try Fixtures.text(transactionPath)) {
                $0["environment"] = environment
            }
            await #expect(throws: VerificationError(.unexpectedEnvironment, ""), "\(environment)") {
                _ = try await xcode.verifyTransaction(forged)
            }
            await #expect(throws: VerificationError(.unexpectedEnvironment, ""), "\(environment)") {
                _ = try await permissive.verifyTransaction(forged)
            }
        }
        // The same forgery left as Xcode data passes: the signature itself is fine, only the claim is refused.
        let honest = try JWSTamper.selfSigned(try Fixtures.text(transactionPath)) { _ in }
        #expect(try await xcode.verifyTransaction(honest).environment == .xcode)
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

/// Every forgery of the Xcode tokens is refused by the Xcode verifier too.
@Suite struct XcodeTamperTests {
    struct Tamper: Sendable, CustomStringConvertible {
        let name: String
        let codes: [VerificationError.Code]
        let apply: @Sendable (String) throws -> String
        var description: String { name }
    }

    static let tampers: [Tamper] = [
        .init(name: "payload edited", codes: [.invalidSignature], apply: JWSTamper.editedPayload),
        .init(name: "signature flipped", codes: [.invalidSignature], apply: JWSTamper.flippedSignature),
        .init(name: "alg none", codes: [.algorithmNotAllowed], apply: JWSTamper.algorithmNone),
        .init(
            name: "alg HS256 keyed with the certificate", codes: [.algorithmNotAllowed],
            apply: JWSTamper.hs256KeyedWithLeaf),
        .init(name: "look-alike three-certificate chain", codes: [.wrongChainLength], apply: JWSTamper.lookAlikeChain),
        .init(name: "truncated", codes: [.malformed], apply: JWSTamper.truncated),
    ]

    @Test(
        "forged Xcode tokens",
        arguments: ["jws/xcode_transaction_autorenewable_2023.jws", "jws/xcode_renewalinfo_2023.jws"], tampers)
    func forged(_ path: String, _ tamper: Tamper) async throws {
        do {
            _ = try await XcodeSignedDataVerifier().verify(try tamper.apply(try Fixtures.text(path)))
            Issue.record("\(tamper.name) accepted")
        } catch let error as VerificationError {
            #expect(tamper.codes.contains(error.code), "\(tamper.name): \(error)")
        }
    }
}
