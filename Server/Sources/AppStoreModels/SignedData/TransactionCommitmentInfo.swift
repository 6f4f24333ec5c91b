public import Foundation

/// A transaction's `commitmentInfo`: where a billing period of a commitment plan (``BillingPlanType/monthly``)
/// stands within its commitment.
public struct TransactionCommitmentInfo: Codable, Sendable, Hashable {
    /// Which billing period of the commitment this transaction pays for (1 through `totalBillingPeriods`).
    @Lenient public var billingPeriodNumber: Int?
    /// How many billing periods the commitment has (12).
    @Lenient public var totalBillingPeriods: Int?
    /// When the commitment ends.
    @Lenient public var commitmentExpiresDate: Date?
    /// The price of the whole commitment, in milliunits of the transaction's currency.
    @Lenient public var commitmentPrice: Int64?

    /// Makes commitment info; set the fields as needed.
    public init() {}
}
