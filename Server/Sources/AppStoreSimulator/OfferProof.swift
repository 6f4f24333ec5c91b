/// What StoreKit carries with a promotional offer to prove the app's server allowed it: the signature fields
/// (StoreKit 1's `SKPaymentDiscount`, StoreKit 2's `promotionalOffer(offerID:keyID:nonce:signature:timestamp:)`)
/// or the compact JWS form (`promotionalOffer(_:compactJWS:)`).
public enum OfferProof: Sendable, Hashable, Codable {
    /// ECDSA P-256 over Apple's U+2063-joined fields, base64 DER, with the key id, nonce and timestamp (ms).
    case signature(keyID: String, nonce: String, timestamp: Int64, signature: String)
    /// An ES256 JWS with `aud` `promotional-offer`.
    case jws(String)
}
