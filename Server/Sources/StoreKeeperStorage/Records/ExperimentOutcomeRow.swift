/// One enrolment's stored outcome: the row an experiment's tally sums. Of a customer's enrolments (their ids
/// merged), only the earliest is counted; the others are kept with `counted` false.
public struct ExperimentOutcomeRow: Sendable, Hashable {
    /// The enrolled key (as enrolled: an alias stays the alias).
    public var appUserKey: String
    /// Its variant.
    public var variant: String
    /// Whether this enrolment is the customer's counted one.
    public var counted: Bool
    /// Whether the server holds evidence for the customer.
    public var evidenced: Bool
    /// A free trial began at or after enrolment.
    public var startedTrial: Bool
    /// A paid period began within the conversion window.
    public var converted: Bool
    /// Revenue since enrolment, in millionths.
    public var revenueMicros: Int64
    /// Proceeds since enrolment, in millionths.
    public var proceedsMicros: Int64
    /// Refunded paid periods since enrolment.
    public var refunds: Int64

    /// Makes a row.
    public init(
        appUserKey: String, variant: String, counted: Bool, evidenced: Bool, startedTrial: Bool = false,
        converted: Bool = false, revenueMicros: Int64 = 0, proceedsMicros: Int64 = 0, refunds: Int64 = 0
    ) {
        self.appUserKey = appUserKey
        self.variant = variant
        self.counted = counted
        self.evidenced = evidenced
        self.startedTrial = startedTrial
        self.converted = converted
        self.revenueMicros = revenueMicros
        self.proceedsMicros = proceedsMicros
        self.refunds = refunds
    }
}
