/// The business metrics StoreKeeper computes from stored evidence (definitions: `docs/metrics.md`).
public enum MetricName: String, Sendable, Hashable, CaseIterable, Codable {
    /// Subscriptions with access (paid, trial or grace) at each bucket's end.
    case activeSubscriptions = "active_subscriptions"
    /// Subscriptions in a free trial at each bucket's end.
    case activeTrials = "active_trials"
    /// Monthly recurring revenue at each bucket's end: every paid period's price normalised to a month, per
    /// currency (milliunits are divided to units).
    case mrr
    /// Subscriptions whose first period began in the bucket.
    case newSubscriptions = "new_subscriptions"
    /// Periods after a subscription's first that began in the bucket.
    case renewals
    /// Of the free trials that ended in the bucket, the share followed by a paid period.
    case trialConversion = "trial_conversion"
    /// Subscriptions whose access ended in the bucket without a next period: `voluntary` (auto-renew off),
    /// `involuntary` (billing), `other`.
    case churn
    /// Refunds dated in the bucket: `count`, and the refunded `amount` per currency.
    case refunds
    /// Renewals that came after a billing failure while the billing grace period kept access.
    case graceRecoveries = "grace_recoveries"
    /// Renewals that came after a billing failure without access (billing retry), within Apple's 60 days.
    case billingRecoveries = "billing_recoveries"
    /// Customers coming back: a period beginning more than 60 days after the subscription lapsed, or a new
    /// subscription in a group where the customer's earlier one had ended.
    case reactivations
    /// Retention by month of first purchase: one series per cohort (`2026-01`), the share of its subscriptions with
    /// access at each bucket's end.
    case cohorts
    /// Money booked in each bucket, per currency: the price of every paid period that began in it (renewals
    /// included), less refunds dated in it (× the refunded share).
    case revenue
    /// What the developer keeps of ``revenue``: each paid period's price less the storefront's tax and Apple's
    /// commission (``ProceedsRules``), less the same of each refund, per currency.
    case proceeds
    /// Per cohort (the month of the customer's first period, `USD 2026-01`): the cohort's ``proceeds`` so far per
    /// customer at each bucket's end.
    case realizedLTV = "realized_ltv"
    /// Annual recurring revenue at each bucket's end: 12 × ``mrr``, per currency.
    case arr
    /// Subscriptions that churned in the bucket (as ``churn`` counts them) ÷ subscriptions with access at the
    /// bucket's start.
    case churnRate = "churn_rate"
    /// Of the revenue of the paid periods that began in the bucket, the share refunded since, per currency.
    case refundRate = "refund_rate"
    /// What moved MRR in each bucket, per currency: `new`, `reactivation`, `expansion`, `contraction` and
    /// `churned`, classified per customer between the bucket's start and its end; they sum to MRR's change.
    case mrrMovement = "mrr_movement"
    /// Of the customers first seen in the bucket, the share with a paid period within 7 days (`7d`) and within 30
    /// days (`30d`) of their first start, among those whose window has closed.
    case conversionToPaying = "conversion_to_paying"
    /// Retention Messaging's real-time requests answered in the bucket (``RetentionAccumulator``).
    case retentionRequests = "retention_requests"
    /// Of those, the answers that kept their customer: the subscription went on after them
    /// (``RetentionAccumulator``).
    case retentionSaves = "retention_saves"

    /// Whether the metric counts retention answers (``RetentionAccumulator``) rather than subscription timelines.
    public var isRetention: Bool { self == .retentionRequests || self == .retentionSaves }

    /// Hashes the case, not its name: a rollup row's key is hashed several times on every write, and a raw-value
    /// enum's default hashes its string.
    public func hash(into hasher: inout Hasher) { hasher.combine(ordinal) }

    /// Compares cases (as the default does for an enum without a raw value), not their names.
    public static func == (lhs: MetricName, rhs: MetricName) -> Bool { lhs.ordinal == rhs.ordinal }

    /// The case's place in the declaration.
    var ordinal: Int {
        switch self {
        case .activeSubscriptions: 0
        case .activeTrials: 1
        case .mrr: 2
        case .newSubscriptions: 3
        case .renewals: 4
        case .trialConversion: 5
        case .churn: 6
        case .refunds: 7
        case .graceRecoveries: 8
        case .billingRecoveries: 9
        case .reactivations: 10
        case .cohorts: 11
        case .revenue: 12
        case .proceeds: 13
        case .realizedLTV: 14
        case .arr: 15
        case .churnRate: 16
        case .refundRate: 17
        case .mrrMovement: 18
        case .conversionToPaying: 19
        case .retentionRequests: 20
        case .retentionSaves: 21
        }
    }
}
