public import Foundation

/// Where a commitment plan stands: a subscription billed monthly within a 12-month commitment
/// (``AppStoreModels/BillingPlanType/monthly``). Every period is billed to the commitment's end; the customer can
/// only decline the next commitment.
public struct CommitmentState: Sendable, Hashable {
    /// Which billing period of the commitment the current period is (1 through ``totalBillingPeriods``).
    public var billingPeriod: Int?
    /// How many billing periods the commitment has.
    public var totalBillingPeriods: Int?
    /// When the commitment ends.
    public var endsAt: Date?
    /// The whole commitment's price, in milliunits of the subscription's currency.
    public var price: Int64?
    /// Whether a new commitment starts when this one ends (`false`: the customer cancelled it).
    public var willRenew: Bool?
    /// The product of the next commitment.
    public var renewsToProductID: String?

    /// Makes a commitment state; set the fields as needed.
    public init() {}
}
