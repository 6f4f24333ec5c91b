public import Foundation

/// A product as the store shows it, with the customer's introductory-offer eligibility from the server.
public struct StoreProduct: Sendable, Hashable {
    /// An introductory offer.
    public struct IntroductoryOffer: Sendable, Hashable {
        /// `FREE_TRIAL`, `PAY_AS_YOU_GO` or `PAY_UP_FRONT`.
        public var discountType: String
        /// The price as the store formats it (e.g. `$0.99`).
        public var displayPrice: String
        /// One period of the offer, as ISO 8601 (`P1W`).
        public var period: String
        /// How many periods it lasts.
        public var periods: Int

        /// Makes an offer.
        public init(discountType: String, displayPrice: String, period: String, periods: Int) {
            self.discountType = discountType
            self.displayPrice = displayPrice
            self.period = period
            self.periods = periods
        }
    }

    /// The product id.
    public var id: String
    /// The price as the store formats it in the customer's storefront (e.g. `$9.99`).
    public var displayPrice: String
    /// The price.
    public var price: Decimal
    /// ISO 4217 currency code.
    public var currencyCode: String
    /// The billing period of a subscription, as ISO 8601 (`P1M`); `nil` for other products.
    public var subscriptionPeriod: String?
    /// The introductory offer, if the product has one.
    public var introductoryOffer: IntroductoryOffer?
    /// Whether this customer may take the introductory offer: `nil` until the server was asked.
    public var isEligibleForIntroOffer: Bool?

    /// Makes a product.
    public init(
        id: String, displayPrice: String, price: Decimal, currencyCode: String, subscriptionPeriod: String?,
        introductoryOffer: IntroductoryOffer?, isEligibleForIntroOffer: Bool? = nil
    ) {
        self.id = id
        self.displayPrice = displayPrice
        self.price = price
        self.currencyCode = currencyCode
        self.subscriptionPeriod = subscriptionPeriod
        self.introductoryOffer = introductoryOffer
        self.isEligibleForIntroOffer = isEligibleForIntroOffer
    }

    /// The price as a paywall says it, offering the introductory price only to a customer the server found
    /// eligible: `$9.99 / month`, `1 week free, then $9.99 / month`, `$0.99 / month for 3 months, then …`.
    public var priceText: String {
        let regular = subscriptionPeriod.map { "\(displayPrice) / \(Self.unit($0))" } ?? displayPrice
        guard let offer = introductoryOffer, isEligibleForIntroOffer == true else { return regular }
        let span = Self.span(offer.period, times: offer.discountType == "PAY_AS_YOU_GO" ? offer.periods : 1)
        switch offer.discountType {
        case "FREE_TRIAL": return "\(span) free, then \(regular)"
        case "PAY_UP_FRONT": return "\(offer.displayPrice) for \(span), then \(regular)"
        default: return "\(offer.displayPrice) / \(Self.unit(offer.period)) for \(span), then \(regular)"
        }
    }

    /// `P1M` → `month`, `P3M` → `3 months`.
    static func unit(_ period: String) -> String {
        let (count, name) = parts(period)
        return count == 1 ? name : "\(count) \(name)s"
    }

    /// `P1W` × 1 → `1 week`; `P1M` × 3 → `3 months`.
    static func span(_ period: String, times: Int) -> String {
        let (count, name) = parts(period)
        let total = count * max(times, 1)
        return total == 1 ? "1 \(name)" : "\(total) \(name)s"
    }

    static func parts(_ period: String) -> (Int, String) {
        let body = period.dropFirst()
        let count = Int(body.dropLast()) ?? 1
        let name =
            switch body.last {
            case "D": "day"
            case "W": "week"
            case "Y": "year"
            default: "month"
            }
        return (count, name)
    }
}
