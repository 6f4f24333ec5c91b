public import Foundation

/// Renewal info's `commitmentInfo`: what happens when a commitment plan's commitment ends. The renewal info's own
/// `autoRenewStatus` still speaks of the next billing period.
public struct RenewalCommitmentInfo: Codable, Sendable, Hashable {
    /// Whether a new commitment starts when this one ends (the customer cancels by turning this off).
    @Lenient public var commitmentAutoRenewStatus: AutoRenewStatus?
    /// The product the next commitment is for.
    @Lenient public var commitmentAutoRenewProductId: String?
    /// How the next commitment is billed.
    @Lenient public var commitmentRenewalBillingPlanType: BillingPlanType?
    /// When the next commitment starts.
    @Lenient public var commitmentRenewalDate: Date?
    /// The next commitment's price, in milliunits of the renewal info's currency.
    @Lenient public var commitmentRenewalPrice: Int64?

    /// Makes commitment renewal info; set the fields as needed.
    public init() {}
}
