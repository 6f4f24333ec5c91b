/// One thing a simulated customer does in the store, on a given day.
public enum PopulationAction: Sendable, Hashable {
    /// Buys `productID`, with its free trial or without.
    case subscribe(customer: Int, productID: String, trial: Bool)
    /// Turns auto-renew off (the subscription ends with its period).
    case turnOffAutoRenew(customer: Int)
    /// The next renewal fails to bill.
    case failNextRenewal(customer: Int)
    /// Billing succeeds again for a subscription in grace or billing retry.
    case recoverBilling(customer: Int)
    /// Apple refunds the subscription's current transaction.
    case refundLatest(customer: Int)
    /// Upgrades to `productID` (a higher level in the group: at once).
    case upgrade(customer: Int, productID: String)

    /// The customer who acts.
    public var customer: Int {
        switch self {
        case .subscribe(let customer, _, _), .turnOffAutoRenew(let customer), .failNextRenewal(let customer),
            .recoverBilling(let customer), .refundLatest(let customer), .upgrade(let customer, _):
            customer
        }
    }

    /// A name for counting: `subscribe`, `trial`, `cancel`, `billing_failure`, `billing_recovery`, `refund`,
    /// `upgrade`.
    public var kind: String {
        switch self {
        case .subscribe(_, _, let trial): trial ? "trial" : "subscribe"
        case .turnOffAutoRenew: "cancel"
        case .failNextRenewal: "billing_failure"
        case .recoverBilling: "billing_recovery"
        case .refundLatest: "refund"
        case .upgrade: "upgrade"
        }
    }
}
