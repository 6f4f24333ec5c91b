import AppStoreSimulator
import AppStoreVerification
import Crypto
import Foundation
import StoreKeeperWire
import TestSupport
import Testing

/// A purchase with a promotional offer needs the app server's signature, as StoreKit checks it: made with the app's
/// In-App Purchase key (the legacy fields or the compact JWS), within 24 hours, with a nonce used once.
@Suite struct SimulatorPromotionalOfferTests {
    struct Signer {
        let key: P256.Signing.PrivateKey
        let keyID: String
        let bundleID: String

        func legacy(product: String = "premium.monthly", offer: String = "winback50", nonce: String, at: Date) throws
            -> OfferProof
        {
            let timestamp = Int64(at.timeIntervalSince1970 * 1000)
            let fields = [bundleID, keyID, product, offer, "", nonce, String(timestamp)].joined(separator: "\u{2063}")
            let signature = try key.signature(for: Data(fields.utf8)).derRepresentation.base64EncodedString()
            return .signature(keyID: keyID, nonce: nonce, timestamp: timestamp, signature: signature)
        }

        func jws(audience: String = "promotional-offer", nonce: String, at: Date) throws -> OfferProof {
            let header = #"{"alg":"ES256","kid":"\#(keyID)","typ":"JWT"}"#
            let claims =
                #"{"aud":"\#(audience)","bid":"\#(bundleID)","iat":\#(Int64(at.timeIntervalSince1970)),"iss":"issuer","nonce":"\#(nonce)","offerIdentifier":"winback50","productId":"premium.monthly"}"#
            let input = Base64.urlEncode(Array(header.utf8)) + "." + Base64.urlEncode(Array(claims.utf8))
            return .jws(input + "." + Base64.urlEncode(try key.signature(for: Array(input.utf8)).rawRepresentation))
        }
    }

    static func signer(_ h: SimulatorHarness) async throws -> Signer {
        let pem = try #require(await h.simulator.generatedAPIKey(bundleID: h.bundleID))
        let keyID = try #require(await h.simulator.app(h.bundleID)?.apiKeyID)
        return Signer(key: try P256.Signing.PrivateKey(pemRepresentation: pem), keyID: keyID, bundleID: h.bundleID)
    }

    func buy(_ h: SimulatorHarness, _ customer: String, _ proof: OfferProof?) async throws -> SimulatedTransaction {
        try await h.simulator.purchase(
            bundleID: h.bundleID, productID: "premium.monthly", customerID: customer,
            options: PurchaseOptions(offer: .promotional("winback50"), offerProof: proof))
    }

    func code(_ body: () async throws -> some Any) async -> String? {
        do {
            _ = try await body()
            return nil
        } catch let error as SimulatorError { return error.code.rawValue } catch { return "\(error)" }
    }

    @Test("a signed offer applies (legacy fields and JWS); the same nonce again is refused")
    func accepted() async throws {
        let h = try await SimulatorHarness()
        let signer = try await Self.signer(h)
        let now = h.clock.now()
        let legacy = try signer.legacy(nonce: "11111111-1111-4111-8111-111111111111", at: now)
        let bought = try await buy(h, "ann", legacy)
        #expect(bought.offerType == 2 && bought.offerIdentifier == "winback50" && bought.price == 4_990)
        #expect(await code { try await buy(h, "bob", legacy) } == "offer_nonce_reused")
        let jws = try signer.jws(nonce: "22222222-2222-4222-8222-222222222222", at: now)
        #expect(try await buy(h, "cy", jws).offerType == 2)
        #expect(await code { try await buy(h, "dee", jws) } == "offer_nonce_reused")
    }

    @Test("no signature, another key, another offer's fields, the wrong audience, or a stale one: refused")
    func refused() async throws {
        let h = try await SimulatorHarness()
        let signer = try await Self.signer(h)
        let now = h.clock.now()
        #expect(await code { try await buy(h, "a", nil) } == "offer_signature_missing")
        let stranger = Signer(key: P256.Signing.PrivateKey(), keyID: signer.keyID, bundleID: h.bundleID)
        #expect(
            await code { try await buy(h, "b", try stranger.legacy(nonce: "n1", at: now)) } == "invalid_offer_signature"
        )
        let otherOffer = try signer.legacy(offer: "other", nonce: "n2", at: now)
        #expect(await code { try await buy(h, "c", otherOffer) } == "invalid_offer_signature")
        #expect(
            await code { try await buy(h, "d", try signer.jws(audience: "appstoreconnect-v1", nonce: "n3", at: now)) }
                == "invalid_offer_signature")
        // Two days before the simulated clock (which is months from the wall clock): stale by either.
        let old = now.addingTimeInterval(-2 * 86_400)
        #expect(
            await code { try await buy(h, "e", try signer.legacy(nonce: "n4", at: old)) } == "offer_signature_expired")
        // Nothing refused was bought.
        #expect(await h.simulator.notifications(for: h.bundleID).isEmpty)
    }
}
