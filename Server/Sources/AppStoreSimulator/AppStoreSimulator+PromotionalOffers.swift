import AppStoreVerification
import Crypto
import Foundation
import StoreKeeperWire

/// Promotional offers as StoreKit checks them: a purchase with one must carry a signature made with the app's
/// In-App Purchase key (the legacy fields or the compact JWS), signed within the last 24 hours, with a nonce
/// never used before.
extension AppStoreSimulator {
    /// How long a promotional offer signature is accepted after it was made (Apple: 24 hours).
    static let offerSignatureLifetime: TimeInterval = 86_400

    /// Checks `proof` for an offer of `productID` and spends its nonce.
    /// - Throws: ``SimulatorError`` `offer_signature_missing`, `offer_key_unknown`, `invalid_offer_signature`
    ///   (naming what is wrong), `offer_signature_expired` or `offer_nonce_reused`.
    func acceptOfferProof(
        _ proof: OfferProof?, app: SimulatedApp, productID: String, offerID: String, appAccountToken: String?
    ) throws {
        guard let proof else {
            throw SimulatorError(
                .offerSignatureMissing,
                "promotional offer \(offerID) needs a signature from the app's server (offerSignature or offerJWS)")
        }
        guard let pem = app.apiPublicKeyPEM, let key = try? P256.Signing.PublicKey(pemRepresentation: pem) else {
            throw SimulatorError(
                .offerKeyUnknown, "app \(app.bundleID) has no In-App Purchase key to check offer signatures with")
        }
        func invalid(_ why: String) -> SimulatorError { SimulatorError(.invalidOfferSignature, why) }
        let nonce: String
        let signedAt: Date
        switch proof {
        case .signature(let keyID, let given, let timestamp, let signature):
            guard keyID == app.apiKeyID else { throw invalid("keyID \(keyID.prefix(40)) is not the app's key") }
            let fields = [
                app.bundleID, keyID, productID, offerID, appAccountToken?.lowercased() ?? "", given.lowercased(),
                String(timestamp),
            ].joined(separator: "\u{2063}")
            guard let der = Data(base64Encoded: signature),
                let parsed = try? P256.Signing.ECDSASignature(derRepresentation: der),
                key.isValidSignature(parsed, for: Data(fields.utf8))
            else { throw invalid("the signature does not verify over \(productID), \(offerID) and the nonce") }
            nonce = given.lowercased()
            signedAt = Date(timeIntervalSince1970: Double(timestamp) / 1000)
        case .jws(let token):
            let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 3, let headerBytes = Base64.decode(parts[0]),
                let claimBytes = Base64.decode(parts[1]), let signatureBytes = Base64.decode(parts[2]),
                let header = (try? JSONSerialization.jsonObject(with: Data(headerBytes))) as? [String: Any],
                let claims = (try? JSONSerialization.jsonObject(with: Data(claimBytes))) as? [String: Any]
            else { throw invalid("offerJWS is not a compact JWS") }
            guard header["alg"] as? String == "ES256", header["kid"] as? String == app.apiKeyID else {
                throw invalid("the JWS header must name ES256 and the app's key id")
            }
            guard let parsed = try? P256.Signing.ECDSASignature(rawRepresentation: signatureBytes),
                key.isValidSignature(parsed, for: Data((parts[0] + "." + parts[1]).utf8))
            else { throw invalid("the JWS signature does not verify") }
            guard claims["aud"] as? String == "promotional-offer", claims["bid"] as? String == app.bundleID,
                claims["productId"] as? String == productID, claims["offerIdentifier"] as? String == offerID,
                let given = claims["nonce"] as? String, let iat = (claims["iat"] as? NSNumber)?.doubleValue
            else {
                throw invalid(
                    "the JWS claims must carry aud promotional-offer, bid \(app.bundleID), productId \(productID), offerIdentifier \(offerID), nonce and iat"
                )
            }
            nonce = given.lowercased()
            signedAt = Date(timeIntervalSince1970: iat)
        }
        // A server signs with its own clock: the simulated one when it shares it, else the wall clock.
        let fresh = [clock.now(), Date()].contains {
            abs($0.timeIntervalSince(signedAt)) <= Self.offerSignatureLifetime
        }
        guard fresh else {
            throw SimulatorError(
                .offerSignatureExpired, "the offer was signed at \(signedAt), not within 24 hours of now")
        }
        guard usedOfferNonces.insert(app.bundleID + "\n" + nonce).inserted else {
            throw SimulatorError(.offerNonceReused, "nonce \(nonce.prefix(40)) was already used for an offer")
        }
        revision &+= 1
    }
}
