import Foundation
import Testing

@testable import SubscriptionMetrics

/// A write's window: counting a customer's change only from the first day it can reach gives exactly the whole
/// difference, and folded history merged into runs stands in for its periods from the window on — so a write's
/// cost does not grow with the customer's history.
@Suite struct MetricRollupWindowTests {
    typealias Customer = [SubscriptionTimeline]
    static let rules = MetricRollupTests.rules
    static let day = MetricRollupTests.day

    /// Whole contributions' difference: what the window must equal.
    static func wholeDifference(_ old: Customer, _ new: Customer) -> [RollupKey: Int64] {
        MetricRollup.difference(
            from: MetricRollup.contribution(old, proceeds: rules), to: MetricRollup.contribution(new, proceeds: rules))
    }

    /// An earlier version of `customer`, as a write finds it: before a renewal, before a refund, before a grace end
    /// or an end reason was announced, before an out-of-order period or a whole subscription arrived.
    static func earlier(_ customer: Customer, kind: Int, random: inout MetricSnapshotTests.Generator) -> Customer {
        var old = customer
        guard !old.isEmpty else { return old }
        let index = random.next(old.count)
        switch kind {
        case 0 where old[index].periods.count > 1: old[index].periods.removeLast()
        case 1:
            guard let refunded = old[index].periods.firstIndex(where: { $0.refundedAt != nil }) else { break }
            old[index].periods[refunded].refundedAt = nil
            old[index].periods[refunded].accessEnd = old[index].periods[refunded].expiresAt
        case 2: old[index].endReason = old[index].endReason == "other" ? "voluntary" : "other"
        case 3 where !old[index].graceEnds.isEmpty: old[index].graceEnds.removeLast()
        case 4 where old[index].periods.count > 2:
            old[index].periods.remove(at: 1 + random.next(old[index].periods.count - 2))
        case 5 where old.count > 1: old.remove(at: index)
        default: old[index].periods.removeLast(min(2, old[index].periods.count - 1))
        }
        return old
    }

    @Test("a change counted from its first changed day is exactly the whole difference, for every kind of change")
    func windowEqualsWhole() {
        var random = MetricSnapshotTests.Generator(state: 41)
        var narrowed = 0
        var split = 0
        for (number, customer) in MetricRollupTests.customers(count: 240, seed: 17).enumerated() {
            let old = Self.earlier(customer, kind: number % 7, random: &random)
            let start = MetricRollup.firstChange(from: old, to: customer)
            let windowed = MetricRollup.change(from: old, to: customer, proceeds: Self.rules, start: start)
            let whole = Self.wholeDifference(old, customer)
            let differing = Set(windowed.keys).union(whole.keys).sorted().filter { windowed[$0] != whole[$0] }
            let first = differing.map {
                "\($0.metric) day \($0.day) \($0.product) \($0.offerType) \($0.column) w=\(windowed[$0] ?? 0) whole=\(whole[$0] ?? 0)"
            }.joined(separator: "; ")
            #expect(
                differing.isEmpty,
                "customer \(number), change \(number % 7), window \(start): \(differing.count) rows differ, first \(first)"
            )
            if case .day(let day, _) = start, let first = customer.flatMap(\.periods).map(\.start).min(),
                day > MetricRollup.day(of: first)
            {
                narrowed += 1
            }
            if old == customer { #expect(start == .nothing) }
            // Conversion's reach took the window back to a first start: the other metrics counted from later.
            if case .day(let day, let others) = start,
                case .some(.some(let date)) = MetricRollup.earliestChange(
                    from: old, to: customer), MetricRollup.day(of: date) > day
            {
                #expect(others == MetricRollup.day(of: date), "the other metrics' day is the earliest change's")
                split += 1
            }
        }
        #expect(narrowed > 60, "most changes reach only recent days (\(narrowed) of 240)")
        #expect(split > 10, "some windows count conversion apart (\(split) of 240)")
    }

    @Test("a subscription moving between its customer's groups counts everything again; one alone in it does not")
    func groupChange() {
        let customers = MetricRollupTests.customers(count: 40, seed: 3)
        guard let customer = customers.first(where: { $0.count == 2 }),
            let alone = customers.first(where: { $0.count == 1 })
        else {
            Issue.record("the generated customers have one and two subscriptions")
            return
        }
        var old = customer
        old[0].group = "another"
        #expect(MetricRollup.firstChange(from: old, to: customer) == .everything)
        let counted = MetricRollup.change(from: old, to: customer, proceeds: Self.rules, start: .everything)
        #expect(counted == Self.wholeDifference(old, customer))
        // A subscription alone in its group, its group named later: nothing regroups, nothing changes.
        var unnamed = alone
        unnamed[0].group = nil
        #expect(MetricRollup.firstChange(from: unnamed, to: alone) == .nothing)
        var renewed = alone
        renewed[0].periods.removeLast()
        let start = MetricRollup.firstChange(from: unnamed, to: renewed)
        #expect(start != .everything)
        #expect(
            MetricRollup.change(from: unnamed, to: renewed, proceeds: Self.rules, start: start)
                == Self.wholeDifference(unnamed, renewed))
    }

    /// One long subscription: a trial or not, then renewals back to back or after a lapse, plans and prices
    /// changing now and then.
    static func longSubscription(_ random: inout MetricSnapshotTests.Generator, periods count: Int)
        -> SubscriptionTimeline
    {
        var periods: [SubscriptionPeriod] = []
        var start = MetricRollupTests.origin.addingTimeInterval(-Double(random.next(2_000)) * day)
        var product = "monthly"
        for index in 0..<count {
            let trial = index == 0 && random.next(2) == 0
            if random.next(8) == 0 { product = product == "monthly" ? "weekly" : "monthly" }
            let length = (trial ? 7 : product == "monthly" ? 30 : 7) * day
            let expires = start.addingTimeInterval(length)
            periods.append(
                SubscriptionPeriod(
                    productID: product, start: start, accessEnd: expires, expiresAt: expires, refundedAt: nil,
                    refundedShare: 100_000, price: trial ? 0 : Int64(random.next(3) == 0 ? 4_990 : 9_990),
                    currency: "USD", storefront: random.next(10) == 0 ? "DEU" : "USA", environment: "Production",
                    offerType: trial ? "free_trial" : "none", isTrial: trial,
                    months: SubscriptionTimeline.months(length)
                ))
            switch random.next(10) {
            case 0: start = expires.addingTimeInterval(Double(1 + random.next(90)) * day)
            case 1: start = expires.addingTimeInterval(-3_600)
            default: start = expires
            }
        }
        return SubscriptionTimeline(
            originalTransactionID: "long", periods: periods, endReason: "other", group: "g", graceEnds: [])
    }

    @Test("runs standing for folded periods give the whole difference of a renewal, however long the history")
    func runsStandIn() {
        var random = MetricSnapshotTests.Generator(state: 5)
        var checked = 0
        for _ in 0..<120 {
            let whole = Self.longSubscription(&random, periods: 6 + random.next(60))
            let old = SubscriptionTimeline(
                originalTransactionID: whole.originalTransactionID, periods: Array(whole.periods.dropLast()),
                endReason: whole.endReason, group: whole.group, graceEnds: [])
            // The row keeps the first period and the latest two; the rest is folded into runs.
            let folded = Array(old.periods.dropFirst().dropLast(2))
            let runs = FoldedPeriods(
                runs: ["long": FoldedPeriods.merged(folded.map { FoldedPeriods.Run(period: $0, lastStart: $0.start) })])
            var row = old
            row.periods = [old.periods[0]] + old.periods.suffix(2)
            var newRow = whole
            newRow.periods = [whole.periods[0]] + whole.periods.suffix(3)
            guard let before = runs.applied(to: [row]), let after = runs.applied(to: [newRow]) else {
                Issue.record("runs did not apply")
                continue
            }
            let start = MetricRollup.firstChange(from: before, to: after)
            guard case .day(let first, _) = start, let end = runs.latestEnd, first > MetricRollup.day(of: end) else {
                continue
            }
            checked += 1
            #expect(
                MetricRollup.change(from: before, to: after, proceeds: Self.rules, start: start)
                    == Self.wholeDifference([old], [whole]))
            #expect((runs.runs["long"]?.count ?? 0) <= folded.count)
        }
        #expect(checked > 80, "renewals whose window begins after the runs (\(checked) of 120)")
    }

    @Test("runs refuse to stand in where a period of the row repeats one they hold, or a group has two subscriptions")
    func runsRefuse() {
        var random = MetricSnapshotTests.Generator(state: 9)
        let whole = Self.longSubscription(&random, periods: 12)
        let runs = FoldedPeriods(
            runs: [
                "long": FoldedPeriods.merged(
                    whole.periods[1...8].map { FoldedPeriods.Run(period: $0, lastStart: $0.start) })
            ])
        #expect(runs.applied(to: [whole]) == nil)
        var row = whole
        row.periods = [whole.periods[0]] + whole.periods.suffix(3)
        #expect(runs.applied(to: [row]) != nil)
        var other = row
        other.originalTransactionID = "other"
        #expect(runs.applied(to: [row, other]) == nil)
        #expect(runs.applied(to: [other]) == nil)
    }
}
