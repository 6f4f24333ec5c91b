public import StoreKeeperAPI

/// A promotional offer the app's server allowed this customer, signed (`POST /v1/offers/sign` with a secret
/// key, so the decision stays on a server), ready for the store.
public struct PromotionalOffer: Sendable, Hashable {
    /// The offer's id in App Store Connect.
    public var offerID: String
    /// The signature (legacy fields and, when the server has an issuer id, the compact JWS).
    public var signature: OfferSignature

    /// Makes an offer.
    public init(offerID: String, signature: OfferSignature) {
        self.offerID = offerID
        self.signature = signature
    }
}
