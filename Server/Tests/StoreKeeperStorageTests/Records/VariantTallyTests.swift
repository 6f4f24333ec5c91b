import StoreKeeperStorage
import TestSupport
import Testing

/// A variant's sums move by the rows counted in and taken out, exactly: whatever order rows come and go in, taking
/// away every row counted leaves an empty tally.
@Suite struct VariantTallyTests {
    /// A row of random outcome (amounts up to 1,000.00, proceeds under revenue).
    static func row(_ index: Int, using generator: inout SeededGenerator) -> ExperimentOutcomeRow {
        let evidenced = Int.random(in: 0..<4, using: &generator) != 0
        let revenue = evidenced ? Int64.random(in: 0...1_000_000_000, using: &generator) : 0
        return ExperimentOutcomeRow(
            appUserKey: "k\(index)", variant: "a", counted: Int.random(in: 0..<5, using: &generator) != 0,
            evidenced: evidenced, startedTrial: evidenced && Bool.random(using: &generator),
            converted: evidenced && revenue > 0, revenueMicros: revenue,
            proceedsMicros: revenue * Int64.random(in: 0...85, using: &generator) / 100,
            refunds: evidenced ? Int64.random(in: 0...2, using: &generator) : 0)
    }

    @Test("every row counted in and then taken out, in another order, leaves exactly nothing")
    func inAndOut() {
        var generator = SeededGenerator(seed: 52)
        let rows = (0..<5_000).map { Self.row($0, using: &generator) }
        let full = rows.reduce(VariantTally()) { $0.adding($1, sign: 1) }
        #expect(full.enrolled == Int64(rows.filter { $0.counted && $0.evidenced }.count))
        #expect(full.withoutEvidence == Int64(rows.filter { $0.counted && !$0.evidenced }.count))
        #expect(full.conversions == Int64(rows.filter { $0.counted && $0.converted }.count))
        #expect(full.proceedsMicros == rows.filter(\.counted).map(\.proceedsMicros).reduce(0, +))
        #expect(full.proceedsSquares > 0)
        let emptied = rows.shuffled(using: &generator).reduce(full) { $0.adding($1, sign: -1) }
        #expect(emptied == VariantTally())
    }

    @Test("a row not counted changes nothing; one without evidence is counted apart, with none of its amounts")
    func apart() {
        let uncounted = ExperimentOutcomeRow(
            appUserKey: "k", variant: "a", counted: false, evidenced: true, converted: true, revenueMicros: 5)
        #expect(VariantTally().adding(uncounted, sign: 1) == VariantTally())
        let guest = ExperimentOutcomeRow(appUserKey: "g", variant: "a", counted: true, evidenced: false)
        var expected = VariantTally()
        expected.withoutEvidence = 1
        #expect(VariantTally().adding(guest, sign: 1) == expected)
    }

    @Test("proceeds' squares are whole cents squared: 12.34 counts as 1,234² cents, 0.015 rounds to 2 cents")
    func squares() {
        let row = ExperimentOutcomeRow(
            appUserKey: "k", variant: "a", counted: true, evidenced: true, proceedsMicros: 12_340_000)
        #expect(VariantTally().adding(row, sign: 1).proceedsCentsSquared == 1_234 * 1_234)
        let half = ExperimentOutcomeRow(
            appUserKey: "k", variant: "a", counted: true, evidenced: true, proceedsMicros: 15_000)
        #expect(VariantTally().adding(half, sign: 1).proceedsCentsSquared == 4)
    }
}
