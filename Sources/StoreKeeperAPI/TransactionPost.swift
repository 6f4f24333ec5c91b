/// The body of `POST /v1/transactions`: a StoreKit 2 signed transaction for a customer.
public struct TransactionPost: Codable, Sendable, Hashable {
    /// The customer's id in your app (1–256 bytes).
    public var appUserID: String
    /// The JWS StoreKit gives for the transaction (`VerificationResult.jwsRepresentation`).
    public var signedTransaction: String

    /// Makes a request.
    public init(appUserID: String, signedTransaction: String) {
        self.appUserID = appUserID
        self.signedTransaction = signedTransaction
    }

    /// The wire names: the only fields the endpoint accepts.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case appUserID = "app_user_id", signedTransaction = "signed_transaction"
    }
}

extension TransactionPost: APIDocumented {
    /// What the object says of itself.
    public static let shape = APIObjectShape(isClosed: true)

    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .appUserID: .required(.text.length(1...256))
        case .signedTransaction: .required(.text.length(1...Int.max))
        }
    }
}
