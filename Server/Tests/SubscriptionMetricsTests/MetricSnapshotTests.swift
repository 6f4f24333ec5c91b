import Foundation
import Testing

@testable import SubscriptionMetrics

/// Snapshot metrics (active subscriptions, active trials, MRR) add each period over the run of buckets it holds;
/// the answer must be exactly what asking every bucket "which period gives access now?" gives — the definition in
/// docs/metrics.md, written out below as the reference.
@Suite struct MetricSnapshotTests {
    /// A small deterministic generator (the same timelines every run).
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    static let origin = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01
    static let day = 86_400.0

    /// Subscriptions with renewals, lapses, overlapping upgrades, refunds that cut access, grace that extends it,
    /// trials, two currencies, two products and some sandbox periods.
    static func timelines(count: Int, seed: UInt64) -> [SubscriptionTimeline] {
        var random = Generator(state: seed)
        return (0..<count).map { number in
            var periods: [SubscriptionPeriod] = []
            var graceEnds: [Date] = []
            // Half start at midnight, so periods begin and end exactly at bucket boundaries too.
            let second = random.next(2) == 0 ? 0 : random.next(86_400)
            var start = origin.addingTimeInterval(Double(random.next(400)) * day + Double(second))
            let currency = random.next(3) == 0 ? "EUR" : "USD"
            let environment = random.next(8) == 0 ? "Sandbox" : "Production"
            for index in 0..<(1 + random.next(14)) {
                let trial = index == 0 && random.next(2) == 0
                let length = (trial ? 7 : [30, 31, 7, 365][random.next(4)]) * day
                let expires = start.addingTimeInterval(length)
                var accessEnd = expires
                var refundedAt: Date?
                if random.next(10) == 0 {  // refunded
                    accessEnd = start.addingTimeInterval(length * 0.4)
                    refundedAt = accessEnd
                }
                if random.next(15) == 0 {  // billing grace
                    accessEnd = expires.addingTimeInterval(16 * day)
                    graceEnds.append(accessEnd)
                }
                periods.append(
                    SubscriptionPeriod(
                        productID: random.next(2) == 0 ? "monthly" : "annual", start: start, accessEnd: accessEnd,
                        expiresAt: expires, refundedAt: refundedAt, refundedShare: 100_000,
                        price: trial ? 0 : Int64(999 + random.next(90_000)), currency: currency, storefront: "USA",
                        environment: environment, offerType: trial ? "free_trial" : "none", isTrial: trial,
                        months: length / day / 30.4375))
                switch random.next(6) {
                case 0: start = start.addingTimeInterval(length * 0.5)  // an upgrade part-way: overlap
                case 1: start = expires.addingTimeInterval(Double(1 + random.next(90)) * day)  // a lapse
                default: start = expires
                }
            }
            return SubscriptionTimeline(
                originalTransactionID: "o\(number)", periods: periods, endReason: "other", group: nil,
                graceEnds: graceEnds)
        }
    }

    /// The definition, bucket by bucket: at each instant, the last period that began before it and gives access
    /// at it.
    static func reference(_ query: MetricQuery, _ timelines: [SubscriptionTimeline]) -> [String: [Double]] {
        let buckets = query.interval.buckets(from: query.from, to: query.to)
        var sums: [String: [Double]] = [:]
        func add(_ value: Double, _ key: String, _ index: Int) {
            sums[key, default: Array(repeating: 0, count: buckets.count)][index] += value
        }
        for timeline in timelines {
            for (index, bucket) in buckets.enumerated() where bucket.start < query.now {
                let instant = min(bucket.end, query.now)
                guard
                    let period = timeline.periods.last(where: { $0.start < instant && instant <= $0.accessEnd }),
                    query.environments.contains(period.environment)
                else { continue }
                let split = query.split == nil ? nil : period.productID
                func key(_ currency: String?) -> String {
                    let parts = [split, currency].compactMap { $0 }
                    return parts.isEmpty ? "all" : parts.joined(separator: " ")
                }
                switch query.name {
                case .activeSubscriptions: add(1, key(nil), index)
                case .activeTrials where period.isTrial: add(1, key(nil), index)
                case .mrr where !period.isTrial && period.price > 0:
                    let monthly = Double(period.price) / 1000 / period.months
                    add(monthly, key(period.currency), index)
                    if let rate = query.reporting?.rate(for: period.currency) {
                        add(monthly * rate, key("reporting EUR"), index)
                    }
                default: break
                }
            }
        }
        return sums.mapValues { $0.map { ($0 * 1000).rounded() / 1000 + 0 } }
    }

    @Test(
        "every snapshot metric, at every resolution, split or not, equals the bucket-by-bucket definition",
        arguments: [MetricName.activeSubscriptions, .activeTrials, .mrr])
    func runsEqualTheDefinition(_ name: MetricName) {
        let timelines = Self.timelines(count: 400, seed: 7)
        for interval in [MetricInterval.day, .week, .month] {
            for split in [nil, MetricSplit.product] {
                var query = MetricQuery(
                    name: name, from: Self.origin.addingTimeInterval(30 * Self.day),
                    to: Self.origin.addingTimeInterval(500 * Self.day), interval: interval, split: split,
                    now: Self.origin.addingTimeInterval(420.5 * Self.day))
                query.reporting = ReportingCurrency(code: "EUR", rates: ["EUR": 1, "USD": 0.9])
                var accumulator = MetricAccumulator(query)
                for timeline in timelines { accumulator.add(timeline) }
                let measured = Dictionary(
                    uniqueKeysWithValues: accumulator.series().map { ($0.key, $0.points.map(\.value)) })
                let expected = Self.reference(query, timelines)
                #expect(!expected.isEmpty, "the population has \(name) to count")
                #expect(measured == expected, "\(name) by \(interval) split \(String(describing: split))")
            }
        }
    }

    /// (Buckets end before `now`: a bucket that has not begun has no snapshot and no movement.)
    @Test("MRR movement's kinds sum to MRR's change in every bucket, per currency, split or not, at every resolution")
    func movementSumsToMRRChange() {
        let timelines = Self.timelines(count: 400, seed: 5)
        for interval in [MetricInterval.day, .week, .month] {
            for split in [nil, MetricSplit.product] {
                func compute(_ name: MetricName) -> [String: [Double]] {
                    var query = MetricQuery(
                        name: name, from: Self.origin, to: Self.origin.addingTimeInterval(420 * Self.day),
                        interval: interval, split: split, now: Self.origin.addingTimeInterval(420.5 * Self.day))
                    query.reporting = ReportingCurrency(code: "EUR", rates: ["EUR": 1, "USD": 0.9])
                    var accumulator = MetricAccumulator(query)
                    for timeline in timelines { accumulator.add(timelines: [timeline]) }
                    return Dictionary(
                        uniqueKeysWithValues: accumulator.series().map { ($0.key, $0.points.map(\.value)) })
                }
                let mrr = compute(.mrr)
                let movement = compute(.mrrMovement)
                #expect(Set(movement.keys.map { String($0[..<$0.lastIndex(of: " ")!]) }) == Set(mrr.keys))
                for (series, values) in mrr {
                    let kinds = movement.filter { $0.key.hasPrefix(series + " ") }.values
                    var worst = 0.0
                    for bucket in values.indices {
                        let moved = kinds.reduce(0) { $0 + $1[bucket] }
                        let change = values[bucket] - (bucket == 0 ? 0 : values[bucket - 1])
                        worst = max(worst, abs(moved - change))
                    }
                    #expect(worst < 0.01, "\(series) by \(interval): off by \(worst)")
                }
            }
        }
    }

    @Test("customers counted in shares and merged give exactly what one computation gives, for every metric")
    func sharesMerge() {
        let timelines = Self.timelines(count: 300, seed: 11)
        // The retention metrics count retention answers, not timelines (RetentionAccumulatorTests).
        for name in MetricName.allCases where !name.isRetention {
            let query = MetricQuery(
                name: name, from: Self.origin, to: Self.origin.addingTimeInterval(450 * Self.day),
                interval: name == .cohorts ? .month : .week, split: .product,
                now: Self.origin.addingTimeInterval(420.5 * Self.day))
            var whole = MetricAccumulator(query)
            var first = MetricAccumulator(query)
            var second = MetricAccumulator(query)
            for (index, timeline) in timelines.enumerated() {
                whole.add(timelines: [timeline])
                if index < 123 { first.add(timelines: [timeline]) } else { second.add(timelines: [timeline]) }
            }
            first.merge(second)
            let merged = first.series().map { ($0.key, $0.points.map(\.value)) }
            let expected = whole.series().map { ($0.key, $0.points.map(\.value)) }
            #expect(merged.map(\.0) == expected.map(\.0), "\(name)")
            #expect(merged.map(\.1) == expected.map(\.1), "\(name)")
            #expect(expected.contains { $0.1.contains { $0 != 0 } }, "\(name) counts something")
        }
    }

    @Test("a bucket no period reaches stays zero; nothing after now is counted")
    func edges() {
        let start = Self.origin.addingTimeInterval(10 * Self.day)
        let period = SubscriptionPeriod(
            productID: "monthly", start: start, accessEnd: start.addingTimeInterval(30 * Self.day),
            expiresAt: start.addingTimeInterval(30 * Self.day), refundedAt: nil, refundedShare: 100_000, price: 9_990,
            currency: "USD", storefront: nil, environment: "Production", offerType: "none", isTrial: false, months: 1)
        let timeline = SubscriptionTimeline(
            originalTransactionID: "a", periods: [period], endReason: "other", group: nil, graceEnds: [])
        var accumulator = MetricAccumulator(
            MetricQuery(
                name: .activeSubscriptions, from: Self.origin, to: Self.origin.addingTimeInterval(60 * Self.day),
                interval: .day, now: Self.origin.addingTimeInterval(25.5 * Self.day)))
        accumulator.add(timeline)
        let values = accumulator.series().first?.points.map(\.value) ?? []
        #expect(values.count == 60)
        #expect(values[9] == 0, "the day it began ends after it began: day 10 counts, day 9 does not")
        #expect(values[10...25].allSatisfy { $0 == 1 }, "active through now (day 25's snapshot is at now)")
        #expect(values[26...].allSatisfy { $0 == 0 }, "no snapshot after now")
    }
}
