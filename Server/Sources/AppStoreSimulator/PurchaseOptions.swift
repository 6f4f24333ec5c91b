/// How a purchase is made.
public struct PurchaseOptions: Sendable, Hashable, Codable {
    /// Which offer to apply.
    public enum OfferChoice: Sendable, Hashable, Codable {
        /// The product's introductory offer (applied only if the customer is eligible in the group).
        case introductory
        /// A promotional offer by identifier.
        case promotional(String)
        /// An offer code by reference name.
        case offerCode(String)
        /// A win-back offer by identifier (only for a customer whose subscription in the group expired).
        case winBack(String)
    }

    /// The offer, if any.
    public var offer: OfferChoice?
    /// The app account token (a UUID the app chose).
    public var appAccountToken: String?
    /// Whether the purchase reaches this customer through Family Sharing.
    public var familyShared = false
    /// The storefront (alpha-3). Default `USA`.
    public var storefront = "USA"
    /// The signature of a promotional offer (required with ``OfferChoice/promotional(_:)``).
    public var offerProof: OfferProof?
    /// `MONTHLY` buys the product's commitment plan (monthly billing, 12-month commitment); `nil` or
    /// `BILLED_UPFRONT` bills the whole period up front.
    public var billingPlan: String? = nil
    /// A subscription of the customer's that this purchase replaces (a switch between a standalone subscription and
    /// a subscription bundle): the new subscription names it as `previousOriginalTransactionId`, and it stops
    /// renewing.
    public var replacing: String? = nil

    /// Makes options.
    public init(
        offer: OfferChoice? = nil, appAccountToken: String? = nil, familyShared: Bool = false,
        storefront: String = "USA", offerProof: OfferProof? = nil
    ) {
        self.offer = offer
        self.appAccountToken = appAccountToken
        self.familyShared = familyShared
        self.storefront = storefront
        self.offerProof = offerProof
    }
}
