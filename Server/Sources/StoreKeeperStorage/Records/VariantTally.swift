/// One variant's sums: customers counted with evidence and without, what they did, and their proceeds' squares
/// (for the proceeds mean's variance). Amounts are whole millionths and squares whole cents squared (integers a
/// `Double` holds exactly below 2⁵³), so adding and taking away rows leaves no rounding behind.
public struct VariantTally: Sendable, Hashable, Codable {
    /// Counted customers the server holds evidence for.
    public var enrolled: Int64 = 0
    /// Counted customers it holds none for (reported apart).
    public var withoutEvidence: Int64 = 0
    /// Of ``enrolled``, those who started a free trial.
    public var trials: Int64 = 0
    /// Of ``enrolled``, those who converted to paid within the window.
    public var conversions: Int64 = 0
    /// Refunded paid periods.
    public var refunds: Int64 = 0
    /// Revenue, in millionths.
    public var revenueMicros: Int64 = 0
    /// Proceeds, in millionths.
    public var proceedsMicros: Int64 = 0
    /// The sum of each customer's proceeds, in whole cents, squared.
    public var proceedsCentsSquared: Double = 0

    /// The sum of each customer's proceeds squared, in whole units.
    public var proceedsSquares: Double { proceedsCentsSquared / 10_000 }

    /// An empty tally.
    public init() {}

    /// This tally with `row` counted (`sign` 1) or taken away (`sign` -1); a row not counted changes nothing.
    public func adding(_ row: ExperimentOutcomeRow, sign: Int64) -> VariantTally {
        guard row.counted else { return self }
        var tally = self
        guard row.evidenced else {
            tally.withoutEvidence += sign
            return tally
        }
        tally.enrolled += sign
        tally.trials += row.startedTrial ? sign : 0
        tally.conversions += row.converted ? sign : 0
        tally.refunds += sign * row.refunds
        tally.revenueMicros += sign * row.revenueMicros
        tally.proceedsMicros += sign * row.proceedsMicros
        let cents = (Double(row.proceedsMicros) / 10_000).rounded()
        tally.proceedsCentsSquared += Double(sign) * cents * cents
        return tally
    }
}
