/// `consumptionRequestReason` of a CONSUMPTION_REQUEST notification.
///
/// Unknown raw values decode to ``unknown(_:)`` instead of failing.
public enum ConsumptionRequestReason: OpenEnum {
    /// Did not mean to buy.
    case unintendedPurchase
    /// Not delivered.
    case fulfillmentIssue
    /// Unhappy with it.
    case unsatisfiedWithPurchase
    /// A legal reason.
    case legal
    /// Another reason.
    case other
    /// A value Apple added after this code was written.
    case unknown(String)

    /// Every known case with its raw value.
    public static let known: [(ConsumptionRequestReason, String)] = [
        (.unintendedPurchase, "UNINTENDED_PURCHASE"),
        (.fulfillmentIssue, "FULFILLMENT_ISSUE"),
        (.unsatisfiedWithPurchase, "UNSATISFIED_WITH_PURCHASE"),
        (.legal, "LEGAL"),
        (.other, "OTHER"),
    ]

    /// The raw value when this is ``unknown(_:)``.
    public var unknownRawValue: String? {
        if case .unknown(let raw) = self { return raw }
        return nil
    }
}
