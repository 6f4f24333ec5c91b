/// Send Consumption Information request body.
public struct ConsumptionRequest: Codable, Sendable, Hashable {
    /// Whether the customer consented to share data.
    @Lenient public var customerConsented: Bool?
    /// 0 undeclared, 1 not consumed, 2 partially, 3 fully.
    @Lenient public var consumptionStatus: Int?
    /// 0 undeclared, 1 Apple, 2 other.
    @Lenient public var platform: Int?
    /// Whether a free sample was available.
    @Lenient public var sampleContentProvided: Bool?
    /// 0 delivered and working, 1–5 problems.
    @Lenient public var deliveryStatus: Int?
    /// The app account token.
    @Lenient public var appAccountToken: String?
    /// Account age bucket.
    @Lenient public var accountTenure: Int?
    /// Play time bucket.
    @Lenient public var playTime: Int?
    /// Refunded amount bucket.
    @Lenient public var lifetimeDollarsRefunded: Int?
    /// Purchased amount bucket.
    @Lenient public var lifetimeDollarsPurchased: Int?
    /// Account status.
    @Lenient public var userStatus: Int?
    /// The developer's refund preference.
    @Lenient public var refundPreference: Int?

    /// Makes an empty value; set the fields you need.
    public init() {}
}
