/// The body of `POST /v1/offers/sign`: a promotional offer to sign.
public struct OfferSignatureRequest: Codable, Sendable, Hashable {
    /// The subscription's product id.
    public var productID: String
    /// The promotional offer's id.
    public var offerID: String
    /// The UUID the app will pass to StoreKit, if any.
    public var appAccountToken: String?
    /// The customer: the answer then also carries the introductory offer eligibility JWS for `productID`.
    public var appUserID: String?
    /// A transaction of the customer for that JWS (e.g. StoreKit's `AppTransaction.appTransactionID`); default the
    /// customer's latest known transaction.
    public var transactionID: String?

    /// Makes a request.
    public init(
        productID: String, offerID: String, appAccountToken: String? = nil, appUserID: String? = nil,
        transactionID: String? = nil
    ) {
        self.productID = productID
        self.offerID = offerID
        self.appAccountToken = appAccountToken
        self.appUserID = appUserID
        self.transactionID = transactionID
    }

    /// The wire names: the only fields the endpoint accepts.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case productID = "product_id", offerID = "offer_id", appAccountToken = "app_account_token"
        case appUserID = "app_user_id", transactionID = "transaction_id"
    }
}

extension OfferSignatureRequest: APIDocumented {
    /// What the object says of itself.
    public static let shape = APIObjectShape(isClosed: true)

    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .productID: .required(.text.length(1...Int.max))
        case .offerID: .required(.text.length(1...Int.max))
        case .appAccountToken: .optional(.uuid)
        case .appUserID: .optional(.text.length(1...256))
        case .transactionID: .optional(.text.length(1...Int.max))
        }
    }
}
