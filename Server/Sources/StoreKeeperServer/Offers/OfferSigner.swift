import AppStoreClient
import AppStoreModels
import AppStoreVerification
import Crypto
import Foundation
import Logging
import StoreKeeperAPI
import StoreKeeperStorage
import StoreKeeperWire
import SubscriptionEngine
import SubscriptionMetrics

/// The offers room's signer: promotional offers in Apple's legacy signature and its JWS forms, with the
/// customer's introductory offer eligibility as Apple's JWS.
struct OfferSigner: Sendable {
    /// The apps whose offer keys sign.
    let apps: AppDirectory
    /// Whose evidence and intro eligibility the eligibility signature speaks for.
    let subscribers: SubscriberService
    /// The server's clock.
    let now: @Sendable () -> Date

    /// Signs a promotional offer: Apple's legacy fields (ECDSA P-256 SHA-256 over the U+2063-joined fields) and,
    /// with an issuer id, the same offer and nonce as a compact JWS. Given a customer, also Apple's introductory
    /// offer eligibility JWS for the product, saying what the engine decides for that customer.
    func sign(
        bundleID: String, productID: String, offerID: String, appAccountToken: String?, appUserID: String? = nil,
        transactionID: String? = nil
    ) async throws -> OfferSignature {
        let app = try apps.app(bundleID)
        guard let key = app.offerKey, let keyID = app.configuration.offerKeyID else {
            throw ServiceError(
                .missingConfiguration, .offerKeyMissing, "no promotional offer key is configured for \(bundleID)")
        }
        guard !productID.isEmpty, !offerID.isEmpty else {
            throw ServiceError.invalid(.invalidOffer, "product_id and offer_id are required")
        }
        if let token = appAccountToken, UUID(uuidString: token) == nil {
            throw ServiceError.invalid(.invalidAppAccountToken, "app_account_token must be a UUID")
        }
        let nonce = UUID().uuidString.lowercased()
        let timestamp = AppleDateFormat.milliseconds(now())
        let payload = [
            bundleID, keyID, productID, offerID, appAccountToken?.lowercased() ?? "", nonce, String(timestamp),
        ]
        .joined(separator: "\u{2063}")
        let signature = try key.signature(for: Array(payload.utf8))
        var answer = OfferSignature(
            keyID: keyID, nonce: nonce, timestamp: timestamp,
            signature: Data(signature.derRepresentation).base64EncodedString())
        guard let issuerID = app.configuration.issuerID else { return answer }
        // Apple's JWS forms: the same offer and nonce (one nonce: whichever form is used spends it).
        let base: [String: Any] = ["iss": issuerID, "bid": bundleID, "iat": timestamp / 1000]
        answer.compactJWS = try Self.compactJWS(
            base.merging([
                "aud": "promotional-offer", "nonce": nonce, "productId": productID, "offerIdentifier": offerID,
            ]) { $1 }, keyID: keyID, key: key)
        if let appUserID = try appUserID.map({ id throws(ServiceError) in try CustomerID.normalized(id) }) {
            let record = try await subscribers.store.subscriber(appUserID, in: app.project)
            let evidence = record?.evidence ?? EvidenceSet()
            let latest = evidence.transactions.max {
                ($0.purchaseDate ?? .distantPast) < ($1.purchaseDate ?? .distantPast)
            }
            let eligible = try await subscribers.eligibility(
                appUserID: appUserID, bundleID: bundleID, productIDs: [productID])
            // Apple requires a transaction of the customer (or its appTransactionId, which the app can pass).
            if let transaction = transactionID ?? latest?.transactionID {
                answer.introductoryOfferEligibilityJWS = try Self.compactJWS(
                    base.merging([
                        "aud": "introductory-offer-eligibility", "nonce": UUID().uuidString.lowercased(),
                        "productId": productID, "allowIntroductoryOffer": eligible[productID] == "eligible",
                        "transactionId": transaction,
                    ]) { $1 }, keyID: keyID, key: key)
            }
        }
        return answer
    }

    /// An ES256 compact JWS over `claims` (sorted keys), as Apple's signing utilities make them.
    static func compactJWS(_ claims: [String: Any], keyID: String, key: P256.Signing.PrivateKey) throws -> String {
        let body = try JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys, .withoutEscapingSlashes])
        return try CompactJWS.make(payload: body, header: CompactJWS.Header(keyID: keyID, type: "JWT")) {
            Array(try key.signature(for: $0).rawRepresentation)
        }
    }
}
