import AppStoreModels
import AppStoreSigning
import AppStoreVerification
import Foundation
import TestSupport
import Testing

/// Real Apple-signed tokens verify; every way of forging one is refused with its own error code.
@Suite struct AppStoreSignedDataVerifierTests {
    static let appleTokens = [
        "jws/notification_TEST_sandbox_2022.jws",
        "jws/renewalinfo_sandbox_ringalarm_2023.jws",
        "jws/transaction_consumable_sandbox_goodheart_2025.jws",
    ]

    let verifier = try! AppStoreSignedDataVerifier()

    @Test("the TEST notification verifies at its signedDate and decodes")
    func testNotification() async throws {
        let notification = try await verifier.verifyNotification(try Fixtures.text(Self.appleTokens[0]))
        #expect(notification.payload.notificationType == .test)
        #expect(notification.payload.subtype == nil)
        #expect(notification.payload.notificationUUID == "5e09dcfc-205e-4ea1-9883-96676f394992")
        #expect(notification.payload.version == "2.0")
        #expect(notification.payload.data?.bundleId == "com.Abilities")
        #expect(notification.payload.data?.environment == .sandbox)
        #expect(notification.payload.signedDate == Date(timeIntervalSince1970: 1_662_122_492.884))
    }

    @Test("the ring alarm renewal info verifies and decodes")
    func renewalInfo() async throws {
        let info = try await verifier.verifyRenewalInfo(try Fixtures.text(Self.appleTokens[1]))
        #expect(info.originalTransactionId == "2000000335310644")
        #expect(info.productId == "co.ringalarm.swtich.quarterly2")
        #expect(info.autoRenewStatus == .on)
        #expect(info.environment == .sandbox)
    }

    @Test("the 2025 consumable verifies and decodes price in milliunits")
    func consumable() async throws {
        let transaction = try await verifier.verifyTransaction(try Fixtures.text(Self.appleTokens[2]))
        #expect(transaction.transactionId == "2000000847061981")
        #expect(transaction.bundleId == "com.goodheartapp")
        #expect(transaction.type == .consumable)
        #expect(transaction.price == 230_000)
        #expect(transaction.currency == "JPY")
        #expect(transaction.storefront == "JPN")
        #expect(transaction.transactionReason == .purchase)
    }

    @Test("tokens from one signing certificate share one cached chain")
    func chainCache() async throws {
        let shared = try AppStoreSignedDataVerifier()
        for path in Self.appleTokens.prefix(2) { _ = try await shared.verify(try Fixtures.text(path)) }
        #expect(shared.chainValidator.cachedChainCount == 1)
        _ = try await shared.verify(try Fixtures.text(Self.appleTokens[2]))
        #expect(shared.chainValidator.cachedChainCount == 2)  // the 2025 token has the newer leaf
    }

    @Test("a chain checked at today's date fails: Apple's old leaf certificates have expired")
    func expiredAtFixedTime() async throws {
        let today = try AppStoreSignedDataVerifier(
            configuration: .init(validationTime: Fixtures.date("2026-11-21T00:00:00Z")))
        await #expect(throws: VerificationError(.certificateExpired, "")) {
            _ = try await today.verify(try Fixtures.text(Self.appleTokens[0]))
        }
    }

    @Test("expectations: another bundle id or environment is refused")
    func expectations() async throws {
        let wrongBundle = try AppStoreSignedDataVerifier(
            configuration: .init(expectations: .init(bundleID: "com.other")))
        await #expect(throws: VerificationError(.unexpectedBundleID, "")) {
            _ = try await wrongBundle.verifyTransaction(try Fixtures.text(Self.appleTokens[2]))
        }
        let production = try AppStoreSignedDataVerifier(
            configuration: .init(expectations: .init(environment: .production)))
        await #expect(throws: VerificationError(.unexpectedEnvironment, "")) {
            _ = try await production.verifyNotification(try Fixtures.text(Self.appleTokens[0]))
        }
    }

    struct Tamper: Sendable, CustomStringConvertible {
        let name: String
        let code: VerificationError.Code
        let apply: @Sendable (String) throws -> String
        var description: String { name }
    }

    static let tampers: [Tamper] = [
        .init(name: "payload edited after signing", code: .invalidSignature, apply: JWSTamper.editedPayload),
        .init(name: "signature bit flipped", code: .invalidSignature, apply: JWSTamper.flippedSignature),
        .init(name: "alg none", code: .algorithmNotAllowed, apply: JWSTamper.algorithmNone),
        .init(name: "alg missing", code: .algorithmNotAllowed, apply: { JWSTamper.withAlgorithm($0, nil) }),
        .init(name: "alg RS256", code: .algorithmNotAllowed, apply: { JWSTamper.withAlgorithm($0, "RS256") }),
        .init(
            name: "alg HS256 keyed with the leaf certificate", code: .algorithmNotAllowed,
            apply: JWSTamper.hs256KeyedWithLeaf),
        .init(
            name: "look-alike chain with Apple's names and OIDs", code: .untrustedRoot, apply: JWSTamper.lookAlikeChain),
        .init(
            name: "foreign leaf under Apple's real intermediate and root", code: .invalidChain,
            apply: JWSTamper.foreignLeafUnderAppleChain),
        .init(name: "truncated", code: .malformed, apply: JWSTamper.truncated),
    ]

    @Test(
        "every tampered copy of every Apple token is refused with its own code",
        arguments: appleTokens, tampers)
    func tampered(_ path: String, _ tamper: Tamper) async throws {
        let forged = try tamper.apply(try Fixtures.text(path))
        do {
            _ = try await verifier.verify(forged)
            Issue.record("\(tamper.name) of \(path) was accepted")
        } catch let error as VerificationError {
            #expect(error.code == tamper.code, "\(tamper.name): \(error)")
        }
    }

    @Test("a chain without Apple's marker extensions is refused even under a configured root")
    func missingExtensions() async throws {
        let pki = try SigningAuthority(withAppleExtensions: false)
        let configured = try AppStoreSignedDataVerifier(configuration: .init(rootCertificates: [pki.chainDER[2]]))
        let token = try pki.sign(Array(#"{"signedDate":1700000000000}"#.utf8))
        await #expect(throws: VerificationError(.missingAppleExtension, "")) { _ = try await configured.verify(token) }
    }

    @Test("a token from our own PKI verifies only when its root is configured")
    func configuredRoot() async throws {
        let pki = try SigningAuthority()
        let token = try pki.sign(
            Array(#"{"transactionId":"1","originalTransactionId":"1","productId":"p","signedDate":1700000000000}"#.utf8)
        )
        let configured = try AppStoreSignedDataVerifier(configuration: .init(rootCertificates: [pki.chainDER[2]]))
        #expect(try await configured.verifyTransaction(token).productId == "p")
        await #expect(throws: VerificationError(.untrustedRoot, "")) { _ = try await verifier.verify(token) }
    }
}
