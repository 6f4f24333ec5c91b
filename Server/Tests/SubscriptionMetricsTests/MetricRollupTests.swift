import Foundation
import Testing

@testable import SubscriptionMetrics

/// Rollups: customers' per-day contributions, summed, answer every rollup metric exactly as the full computation
/// does with its clock read by the day — every bucket, the one holding the clock's day too, at every resolution,
/// split by every dimension, in every environment, with a reporting currency; and a changed customer's difference
/// keeps the sum right.
@Suite struct MetricRollupTests {
    static let origin = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01
    static let day = 86_400.0
    /// The clock: mid-day, so the day holding it is partly past.
    static let now = origin.addingTimeInterval(300.5 * day)

    /// Customers with one or two subscriptions in a group: renewals, lapses long and short, upgrades part-way,
    /// refunds (full and partial), grace, trials and intro offers, two products, three storefronts, two
    /// currencies, a few sandbox periods. Nothing is bought or refunded after `now`; expiries may be later.
    static func customers(count: Int, seed: UInt64) -> [[SubscriptionTimeline]] {
        var random = MetricSnapshotTests.Generator(state: seed)
        return (0..<count).map { number in
            (0..<(1 + random.next(2))).compactMap { subscription -> SubscriptionTimeline? in
                var periods: [SubscriptionPeriod] = []
                var graceEnds: [Date] = []
                let second = random.next(2) == 0 ? 0 : random.next(86_400)
                var start = origin.addingTimeInterval(Double(random.next(320)) * day + Double(second))
                let currency = random.next(3) == 0 ? "EUR" : "USD"
                let storefront = ["USA", "DEU", "FRA"][random.next(3)]
                let environment = random.next(8) == 0 ? "Sandbox" : "Production"
                for index in 0..<(1 + random.next(14)) where start < now {
                    let trial = index == 0 && random.next(2) == 0
                    let intro = index == 0 && !trial && random.next(4) == 0
                    let length = (trial ? 7 : [30, 31, 7, 365][random.next(4)]) * day
                    let expires = start.addingTimeInterval(length)
                    var accessEnd = expires
                    var refundedAt: Date?
                    var share = 100_000
                    if random.next(10) == 0, start.addingTimeInterval(length * 0.4) < now {
                        accessEnd = start.addingTimeInterval(length * 0.4)
                        refundedAt = accessEnd
                        share = random.next(2) == 0 ? 100_000 : 50_000
                    }
                    if random.next(15) == 0 {
                        accessEnd = expires.addingTimeInterval(16 * day)
                        graceEnds.append(accessEnd)
                    }
                    periods.append(
                        SubscriptionPeriod(
                            productID: random.next(2) == 0 ? "monthly" : "annual", start: start, accessEnd: accessEnd,
                            expiresAt: expires, refundedAt: refundedAt, refundedShare: share,
                            price: trial ? 0 : Int64(999 + random.next(90_000)), currency: currency,
                            storefront: storefront, environment: environment,
                            offerType: trial ? "free_trial" : intro ? "introductory" : "none", isTrial: trial,
                            months: SubscriptionTimeline.months(length)))
                    switch random.next(6) {
                    case 0: start = start.addingTimeInterval(length * 0.5)
                    case 1: start = expires.addingTimeInterval(Double(1 + random.next(90)) * day)
                    default: start = expires
                    }
                }
                guard !periods.isEmpty else { return nil }
                return SubscriptionTimeline(
                    originalTransactionID: "o\(number)-\(subscription)", periods: periods,
                    endReason: ["voluntary", "involuntary", "other"][random.next(3)], group: "g\(number)",
                    graceEnds: graceEnds)
            }
        }
    }

    /// Subscriptions whose access ends on the clock's day: set to renew (later that day, and earlier that day with
    /// the renewal not heard yet), a free trial set to convert, and one the customer turned off.
    static func endingToday() -> [[SubscriptionTimeline]] {
        func timeline(_ id: String, ends offset: Double, trial: Bool = false, reason: String) -> [SubscriptionTimeline]
        {
            let end = now.addingTimeInterval(offset * 3_600)
            let length = (trial ? 7 : 30) * day
            let period = SubscriptionPeriod(
                productID: "monthly", start: end.addingTimeInterval(-length), accessEnd: end, expiresAt: end,
                refundedAt: nil, refundedShare: 100_000, price: trial ? 0 : 9_990, currency: "USD", storefront: "USA",
                environment: "Production", offerType: trial ? "free_trial" : "none", isTrial: trial, months: 1)
            return [
                SubscriptionTimeline(
                    originalTransactionID: id, periods: [period], endReason: reason, group: nil, graceEnds: [])
            ]
        }
        return [
            timeline("later", ends: 4, reason: "other"), timeline("earlier", ends: -4, reason: "other"),
            timeline("trial", ends: 2, trial: true, reason: "other"), timeline("off", ends: 3, reason: "voluntary"),
        ]
    }

    static let rules = ProceedsRules(smallBusinessProgram: false, taxRates: ["DEU": 0.19, "FRA": 0.2])

    /// Sums contributions as a store would.
    static func rollups(_ customers: [[SubscriptionTimeline]]) -> [RollupKey: Int64] {
        var total: [RollupKey: Int64] = [:]
        for customer in customers {
            for (key, value) in MetricRollup.contribution(customer, proceeds: rules) { total[key, default: 0] += value }
        }
        return total
    }

    /// The full computation with the clock read by the day, and the rollups' answer, every bucket.
    static func compare(_ query: MetricQuery, _ customers: [[SubscriptionTimeline]], _ rollups: [RollupKey: Int64])
        -> (full: [String: [Double]], rolled: [String: [Double]])
    {
        var query = query
        query.dayClock = true
        var accumulator = MetricAccumulator(query)
        for customer in customers { accumulator.add(timelines: customer) }
        func table(_ series: [MetricSeries]) -> [String: [Double]] {
            Dictionary(uniqueKeysWithValues: series.map { ($0.key, $0.points.map(\.value)) })
                .filter { $0.value.contains { $0 != 0 } }
        }
        let rows = rollups.map { (key: $0.key, value: $0.value) }
        return (table(accumulator.series()), table(MetricRollup.answer(rows, query: query)))
    }

    /// Amounts are summed as doubles in another order: a total exactly between two thousandths may round either
    /// way, so answers agree to the thousandth of a unit (counts exactly, being whole).
    static let thousandth = 0.001 + 1e-9

    /// The largest difference between two answers, infinite when their series differ.
    static func largestDifference(_ left: [String: [Double]], _ right: [String: [Double]]) -> Double {
        guard Set(left.keys) == Set(right.keys) else { return .infinity }
        return left.map { key, values in
            guard let other = right[key], other.count == values.count else { return Double.infinity }
            return zip(values, other).map { abs($0 - $1) }.max() ?? 0
        }.max() ?? 0
    }

    @Test(
        "summed contributions answer each rollup metric as the full computation, bucket by bucket",
        arguments: MetricRollup.metrics + [.arr])
    func equalsTheFullComputation(_ name: MetricName) {
        let customers = Self.customers(count: 300, seed: 11) + Self.endingToday()
        let today = MetricRollup.day(of: Self.now)
        let renewingToday = customers.flatMap { $0 }.filter { timeline in
            MetricAccumulator.renewingLast(timeline).map {
                MetricRollup.day(of: timeline.periods[$0].accessEnd) == today
            }
                ?? false
        }
        #expect(renewingToday.count >= 3, "some subscriptions set to renew end on the clock's day")
        let rollups = Self.rollups(customers)
        for interval in MetricInterval.allCases {
            for split in [nil, MetricSplit.product, .storefront, .environment, .offerType] {
                for environments in [Set(["Production"]), ["Production", "Sandbox", "Xcode"]] {
                    var query = MetricQuery(
                        name: name, from: Self.origin.addingTimeInterval(40.3 * Self.day), to: Self.now,
                        interval: interval, split: split, environments: environments, now: Self.now)
                    query.proceeds = Self.rules
                    let (full, rolled) = Self.compare(query, customers, rollups)
                    #expect(!full.isEmpty, "the population has \(name) to count")
                    let worst = Self.largestDifference(full, rolled)
                    #expect(
                        worst <= Self.thousandth,
                        "\(name) by \(interval) split \(String(describing: split)) in \(environments.sorted()): \(worst)"
                    )
                }
            }
        }
    }

    @Test("with a reporting currency, the converted series agree to the thousandth of a unit per amount")
    func reportingCurrency() {
        let customers = Self.customers(count: 200, seed: 5)
        let rollups = Self.rollups(customers)
        for name in [MetricName.revenue, .mrr, .arr, .refunds, .proceeds, .refundRate, .realizedLTV] {
            var query = MetricQuery(
                name: name, from: Self.origin, to: Self.now, interval: .month, split: .storefront, now: Self.now)
            query.proceeds = Self.rules
            query.reporting = ReportingCurrency(code: "EUR", rates: ["EUR": 1, "USD": 0.9])
            let (full, rolled) = Self.compare(query, customers, rollups)
            #expect(full.keys.contains { $0.contains("reporting EUR") }, "\(name) has reporting series")
            // Proceeds round each converted amount to a thousandth; rollups convert the day's sum.
            let tolerance =
                [.proceeds, .realizedLTV].contains(name) ? 0.001 * Double(customers.count) : Self.thousandth
            #expect(Self.largestDifference(full, rolled) <= tolerance, "\(name)")
        }
    }

    @Test(
        "a customer's new evidence adds the difference: old rollups plus it equal the rollups of the new state, exactly"
    )
    func differenceKeepsTheSum() {
        let before = Self.customers(count: 120, seed: 3)
        let after = Self.customers(count: 120, seed: 4)
        var rollups = Self.rollups(before)
        for (old, new) in zip(before, after) {
            let difference = MetricRollup.difference(
                from: MetricRollup.contribution(old, proceeds: Self.rules),
                to: MetricRollup.contribution(new, proceeds: Self.rules))
            for (key, value) in difference { rollups[key, default: 0] += value }
        }
        #expect(
            rollups.filter { $0.value != 0 } == Self.rollups(after).filter { $0.value != 0 }, "exactly, in millionths")
    }

    @Test("a customer without periods contributes nothing; the day fast path makes the calendar's buckets")
    func edges() {
        #expect(MetricRollup.contribution([]).isEmpty)
        let from = Self.origin.addingTimeInterval(3_600.5)
        let to = Self.origin.addingTimeInterval(40 * Self.day + 1)
        let buckets = MetricInterval.day.buckets(from: from, to: to)
        #expect(buckets.count == 41)
        #expect(buckets.first?.start == Self.origin)
        #expect(zip(buckets, buckets.dropFirst()).allSatisfy { $0.end == $1.start })
    }

    @Test("a key's fingerprint hash is FNV-1a of its fields, each ended by a zero byte: stored ones keep meaning")
    func fingerprintHashIsStable() {
        let key = RollupKey(
            metric: .mrr, day: 20_454, product: "monthly", storefront: "USA", environment: "Production",
            offerType: "none", series: "USD", column: .delta)
        // Computed by hand (Python) over "mrr\0 20454\0 monthly\0 USA\0 Production\0 none\0 USD\0 2\0".
        #expect(MetricRollup.hash(key) == 5_072_644_544_657_791_676)
        #expect(MetricRollup.fingerprint([key: 3]) == Int64(bitPattern: 3 &* 5_072_644_544_657_791_676))
    }
}
