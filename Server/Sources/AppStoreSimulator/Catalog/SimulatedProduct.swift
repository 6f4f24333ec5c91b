/// A product an app sells in the simulator.
public struct SimulatedProduct: Sendable, Hashable, Codable {
    /// What kind of product.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// Auto-renewable subscription.
        case autoRenewable = "Auto-Renewable Subscription"
        /// Non-consumable.
        case nonConsumable = "Non-Consumable"
        /// Consumable.
        case consumable = "Consumable"
        /// Non-renewing subscription.
        case nonRenewing = "Non-Renewing Subscription"
    }

    /// An offer attached to a product.
    public struct Offer: Sendable, Hashable, Codable {
        /// `FREE_TRIAL`, `PAY_AS_YOU_GO` or `PAY_UP_FRONT` (subscriptions); `ONE_TIME` (an offer code on other
        /// products, whose period is ignored).
        public var discountType: String
        /// The offer's period.
        public var period: SubscriptionPeriod
        /// How many periods it lasts (pay-as-you-go).
        public var periods: Int
        /// Price per period in milliunits (0 for a free trial).
        public var price: Int64

        /// Makes an offer.
        public init(discountType: String, period: SubscriptionPeriod, periods: Int = 1, price: Int64 = 0) {
            self.discountType = discountType
            self.period = period
            self.periods = periods
            self.price = price
        }
    }

    /// The product identifier.
    public var productID: String
    /// What kind.
    public var kind: Kind
    /// The subscription group (auto-renewables).
    public var subscriptionGroupID: String?
    /// Level in the group: 1 is the highest tier (Apple's ordering).
    public var level: Int
    /// The billing period (auto-renewables).
    public var period: SubscriptionPeriod?
    /// Price in milliunits per storefront, e.g. `["USA": 9990]`.
    public var prices: [String: Int64]
    /// The introductory offer.
    public var introductoryOffer: Offer?
    /// Promotional offers by identifier.
    public var promotionalOffers: [String: Offer]
    /// Offer codes by reference name.
    public var offerCodes: [String: Offer]
    /// Win-back offers by identifier: for customers whose subscription in the group has expired (absent in worlds
    /// saved before they existed).
    public var winBackOffers: [String: Offer]?
    /// The monthly price per storefront of the product's "Monthly with 12-Month Commitment" billing plan (a yearly
    /// subscription only); `nil` when the product offers only up-front billing.
    public var monthlyCommitmentPrices: [String: Int64]? = nil

    /// How many monthly billing periods a commitment has.
    public static let commitmentPeriods = 12

    /// Makes a product.
    public init(
        productID: String, kind: Kind = .autoRenewable, subscriptionGroupID: String? = nil, level: Int = 1,
        period: SubscriptionPeriod? = .month, prices: [String: Int64] = ["USA": 9_990], introductoryOffer: Offer? = nil,
        promotionalOffers: [String: Offer] = [:], offerCodes: [String: Offer] = [:],
        winBackOffers: [String: Offer]? = nil, monthlyCommitmentPrices: [String: Int64]? = nil
    ) {
        self.productID = productID
        self.kind = kind
        self.subscriptionGroupID = subscriptionGroupID
        self.level = level
        self.period = kind == .autoRenewable ? period : nil
        self.prices = prices
        self.introductoryOffer = introductoryOffer
        self.promotionalOffers = promotionalOffers
        self.offerCodes = offerCodes
        self.winBackOffers = winBackOffers
        self.monthlyCommitmentPrices = kind == .autoRenewable && period == .year ? monthlyCommitmentPrices : nil
    }
}
