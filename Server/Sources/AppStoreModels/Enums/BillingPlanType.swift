/// `billingPlanType` of a signed transaction, and `renewalBillingPlanType` / `commitmentRenewalBillingPlanType` of
/// renewal info: how a subscription is billed.
///
/// `MONTHLY` is a monthly subscription with a 12-month commitment (Apple, 2026): billed every month, committed
/// for twelve payments. Unknown raw values decode to ``unknown(_:)`` instead of failing.
public enum BillingPlanType: OpenEnum {
    /// The whole period is billed at its start (every subscription before commitment plans).
    case billedUpfront
    /// Billed monthly within a commitment (twelve billing periods).
    case monthly
    /// A value Apple added after this code was written.
    case unknown(String)

    /// Every known case with its raw value.
    public static let known: [(BillingPlanType, String)] = [
        (.billedUpfront, "BILLED_UPFRONT"),
        (.monthly, "MONTHLY"),
    ]

    /// The raw value when this is ``unknown(_:)``.
    public var unknownRawValue: String? {
        if case .unknown(let raw) = self { return raw }
        return nil
    }
}
