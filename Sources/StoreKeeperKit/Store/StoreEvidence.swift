/// Proof of purchase the server verifies.
public enum StoreEvidence: Sendable, Hashable {
    /// A base64 app receipt (StoreKit 1, or `Bundle.main.appStoreReceiptURL`).
    case receipt(String)
    /// A StoreKit 2 signed transaction (`VerificationResult.jwsRepresentation`).
    case signedTransaction(String)
}
