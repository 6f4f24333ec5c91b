/// `POST /v1/offers/sign`: what StoreKit needs to apply a promotional offer.
public struct OfferSignature: Codable, Sendable, Hashable {
    /// The offer key's id.
    public var keyID: String
    /// A fresh lowercase UUID.
    public var nonce: String
    /// Milliseconds since 1970 (the server's clock).
    public var timestamp: Int64
    /// Base64 DER ECDSA P-256 signature over Apple's U+2063-joined fields.
    public var signature: String
    /// The same offer as Apple's compact JWS (`aud` `promotional-offer`, same nonce), for StoreKit's
    /// `promotionalOffer(_:compactJWS:)`; `nil` when the app has no issuer id configured.
    public var compactJWS: String?
    /// Apple's introductory offer eligibility JWS (`aud` `introductory-offer-eligibility`) for the product and the
    /// request's `app_user_id`, saying whether StoreKeeper finds the customer eligible; for StoreKit's
    /// `introductoryOfferEligibility(compactJWS:)`. Present when an `app_user_id` was given, the app has an issuer
    /// id, and a transaction of the customer is known (or `transaction_id` was given).
    public var introductoryOfferEligibilityJWS: String?

    /// Makes a signature.
    public init(
        keyID: String, nonce: String, timestamp: Int64, signature: String, compactJWS: String? = nil,
        introductoryOfferEligibilityJWS: String? = nil
    ) {
        self.keyID = keyID
        self.nonce = nonce
        self.timestamp = timestamp
        self.signature = signature
        self.compactJWS = compactJWS
        self.introductoryOfferEligibilityJWS = introductoryOfferEligibilityJWS
    }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case keyID = "key_id", nonce, timestamp, signature, compactJWS = "compact_jws"
        case introductoryOfferEligibilityJWS = "introductory_offer_eligibility_jws"
    }
}

extension OfferSignature: APIDocumented {
    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .keyID: .required(.text)
        case .nonce: .required(.text)
        case .timestamp: .required(.integer)
        case .signature: .required(.text)
        case .compactJWS: .optional(.text)
        case .introductoryOfferEligibilityJWS: .optional(.text)
        }
    }
}
