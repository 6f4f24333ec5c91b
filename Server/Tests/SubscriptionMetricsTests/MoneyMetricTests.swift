import Foundation
import SubscriptionEngine
import Testing

@testable import SubscriptionMetrics

/// Revenue, ARR, churn rate, refund rate and MRR movement on ``MetricAccumulatorTests``' fixed history, worked out by hand
/// (months of 2026, the server's clock on Mar 20, Production only; prices in USD):
///
/// - Revenue by the month a paid period began: January A1 + B2 + E1 = 3 × 9.99 = 29.97 (the trials B1 and C1 are
///   free, F is sandbox); February A2 9.99 + D1 79.99 = 89.98; March A3 9.99 less D1's refund of 90 % of 79.99
///   (71.991, dated Mar 10) = −62.001.
/// - ARR is 12 × MRR at each month's end: January A1, B2, E1 = 3 × 119.88 = 359.64; February A2 119.88 + D1 (an
///   annual plan) 79.99 = 199.87; March (at Mar 20) A3 alone = 119.88, D1's access having ended at its refund.
/// - Churn rate: who had access at each month's start (Jan 1 00:00: nobody, as A1 began at noon; Feb 1: A1, B2,
///   E1; Mar 1: A2, D1) and who churned in the month (January C, February B and E, March nobody): 0, 2 ÷ 3, 0 ÷ 2.
/// - Refund rate by the month the refunded period began: February's 89.98 of which D1's 71.991 was refunded,
///   0.80007; January and March nothing refunded.
@Suite struct MoneyMetricTests {
    typealias Fixture = MetricAccumulatorTests

    @Test("revenue books each paid period in the month it began and takes each refund off in the month of the refund")
    func revenue() {
        #expect(Fixture.compute(.revenue) == ["USD": [29.97, 89.98, -62.001]])
        #expect(
            Fixture.compute(.revenue, split: .product) == [
                "premium.monthly USD": [29.97, 9.99, 9.99], "premium.annual USD": [0, 79.99, -71.991],
            ])
        #expect(Fixture.compute(.revenue, environments: ["Sandbox"]) == ["USD": [9.99, 0, 0]])
    }

    @Test("ARR is twelve times MRR at each snapshot, per currency")
    func arr() {
        #expect(Fixture.compute(.arr) == ["USD": [359.64, 199.87, 119.88]])
        let mrr = Fixture.compute(.mrr)["USD"] ?? []
        let arr = Fixture.compute(.arr)["USD"] ?? []
        #expect(zip(mrr, arr).allSatisfy { abs($0 * 12 - $1) < 0.01 }, "\(mrr) \(arr)")
    }

    @Test("churn rate divides the month's churn by the subscriptions with access at its start (0 when nobody had)")
    func churnRate() throws {
        let rate = try #require(Fixture.compute(.churnRate)["all"])
        #expect(rate.count == 3 && rate[0] == 0 && abs(rate[1] - 2.0 / 3) < 1e-12 && rate[2] == 0, "\(rate)")
        let churned = Fixture.compute(.churn).values.reduce([0.0, 0, 0]) { zip($0, $1).map(+) }
        #expect(churned == [1, 2, 0], "the numerators are churn's counts")
    }

    @Test("refund rate is the share of a month's booked revenue refunded since, so it stays between 0 and 1")
    func refundRate() throws {
        let rate = try #require(Fixture.compute(.refundRate)["USD"])
        #expect(rate.count == 3 && rate[0] == 0 && abs(rate[1] - 71.991 / 89.98) < 1e-12 && rate[2] == 0, "\(rate)")
    }

    @Test("every money metric also sums the currencies at their rates in a reporting currency")
    func reportingCurrency() throws {
        var query = MetricQuery(
            name: .revenue, from: Fixture.date(1, 1, hour: 0), to: Fixture.date(4, 1, hour: 0), interval: .month,
            now: Fixture.date(3, 20))
        query.reporting = ReportingCurrency(code: "EUR", rates: ["USD": 0.5])
        for name in [MetricName.revenue, .arr, .refundRate] {
            query.name = name
            var metric = MetricAccumulator(query)
            Fixture.customers.forEach { metric.add($0) }
            let series = Dictionary(uniqueKeysWithValues: metric.series().map { ($0.key, $0.points.map(\.value)) })
            let usd = try #require(series["USD"])
            let eur = try #require(series["reporting EUR"])
            let factor = name == .refundRate ? 1.0 : 0.5
            #expect(zip(usd, eur).allSatisfy { abs($0 * factor - $1) < 0.001 }, "\(name): \(usd) \(eur)")
        }
    }

    @Test("MRR movement: each customer's change, classified day by day; the kinds sum to MRR's change")
    func mrrMovement() throws {
        // A, B and E start paying in January (new); D in February (new, 79.99 / 12); B and E stop in February and
        // D at its March refund (churned).
        let movement = Fixture.compute(.mrrMovement)
        #expect(movement == ["USD new": [29.97, 6.666, 0], "USD churned": [0, -19.98, -6.666]], "\(movement)")
        let mrr = try #require(Fixture.compute(.mrr)["USD"])
        for bucket in 0..<3 {
            let moved = movement.values.reduce(0) { $0 + $1[bucket] }
            #expect(abs(moved - (mrr[bucket] - (bucket == 0 ? 0 : mrr[bucket - 1]))) < 0.002, "month \(bucket + 1)")
        }
        // Classified day by day: G lapses Feb 2 and pays again Feb 10 (9.99 a month), H lapses Feb 3 and pays
        // again Feb 20 for 26 days (9.99 / (26 / 30.4375) = 11.695 a month): each a churn, then a reactivation, in
        // February. I pays in January, lapses in February and subscribes again on Mar 15: a reactivation, not new.
        let returns = Fixture.compute(.mrrMovement, customers: Fixture.returns)
        #expect(returns["USD reactivation"] == [0, 21.685, 9.99], "\(returns)")
    }

    @Test("MRR movement: moving to a dearer plan is expansion, to a cheaper one contraction")
    func expansionAndContraction() {
        var evidence = EvidenceSet()
        evidence.insert(
            Fixture.period("X1", "X1", "basic", from: Fixture.date(1, 3), to: Fixture.date(2, 3), price: 9_990))
        evidence.insert(
            Fixture.period("X2", "X1", "plus", from: Fixture.date(2, 3), to: Fixture.date(3, 3), price: 19_990))
        evidence.insert(
            Fixture.period("X3", "X1", "lite", from: Fixture.date(3, 3), to: Fixture.date(4, 3), price: 4_990))
        #expect(
            Fixture.compute(.mrrMovement, customers: [evidence]) == [
                "USD new": [9.99, 0, 0], "USD expansion": [0, 10, 0], "USD contraction": [0, 0, -15],
            ])
    }

    @Test("proceeds: 70 % of each price in a subscription's first year, refunds taking back the same share")
    func proceedsFirstYear() {
        // Every paid period of the fixture is in its subscription's first year: 9.99 × 0.7 = 6.993 each; D1
        // 79.99 × 0.7 = 55.993, and its March refund of 90 % takes back 50.3937.
        #expect(Self.close(Fixture.compute(.proceeds), ["USD": [20.979, 62.986, -43.4007]]))
    }

    /// One customer's annual plan bought on `start` (UTC noon) and renewed once, 99.99 a year, in `storefront`.
    static func annual(_ id: String, from start: Date, storefront: String = "USA", lapseDays: Double = 0)
        -> EvidenceSet
    {
        var evidence = EvidenceSet()
        let year = 365.0 * 86_400
        var first = Fixture.period(
            id + "1", id, "premium.annual", from: start, to: start + year, price: 99_990, group: "pro")
        first.storefront = storefront
        let renewedAt = start + year + lapseDays * 86_400
        var second = Fixture.period(
            id + "2", id, "premium.annual", from: renewedAt, to: renewedAt + year, price: 99_990, group: "pro")
        second.storefront = storefront
        evidence.insert(first)
        evidence.insert(second)
        return evidence
    }

    /// Whether `measured` has `expected`'s series, each point within 2.5 milliunits: each amount is kept in whole
    /// milliunits (a hand-computed 84.9915 is 84.991 or 84.992), and a month here sums at most three.
    static func close(_ measured: [String: [Double]], _ expected: [String: [Double]]) -> Bool {
        measured.keys.sorted() == expected.keys.sorted()
            && expected.allSatisfy { key, values in
                zip(measured[key] ?? [], values).allSatisfy { abs($0 - $1) <= 0.0025 }
                    && measured[key]?.count == values.count
            }
    }

    static func proceeds(_ customers: [EvidenceSet], rules: ProceedsRules = ProceedsRules()) -> [String: [Double]] {
        var query = MetricQuery(
            name: .proceeds, from: Fixture.date(1, 1, hour: 0), to: Fixture.date(4, 1, hour: 0), interval: .month,
            now: Fixture.date(3, 20))
        query.proceeds = rules
        var metric = MetricAccumulator(query)
        customers.forEach { metric.add($0) }
        return Dictionary(uniqueKeysWithValues: metric.series().map { ($0.key, $0.points.map(\.value)) })
    }

    @Test("proceeds: 85 % once a year of paid service is reached, unless a lapse of more than 60 days reset it")
    func proceedsAfterAYear() {
        let lastYear = Fixture.date(1, 10) - 365 * 86_400
        // Renewed on Jan 10 after 365 paid days: 99.99 × 0.85 = 84.9915.
        #expect(Self.close(Self.proceeds([Self.annual("K", from: lastYear)]), ["USD": [84.9915, 0, 0]]))
        // The same year of service, then 61 days without: the count starts again, 99.99 × 0.7 = 69.993.
        let lapsed = lastYear - 61 * 86_400
        #expect(Self.close(Self.proceeds([Self.annual("L", from: lapsed, lapseDays: 61)]), ["USD": [69.993, 0, 0]]))
        // 60 days without keeps the count: 84.9915 again.
        let paused = lastYear - 60 * 86_400
        #expect(Self.close(Self.proceeds([Self.annual("M", from: paused, lapseDays: 60)]), ["USD": [84.9915, 0, 0]]))
    }

    @Test("proceeds: the Small Business Program's 15 % from the first day, and a storefront's VAT taken out first")
    func proceedsProgramAndTax() {
        // 85 % of every price: January 3 × 8.4915, February 8.4915 + 67.9915, March 8.4915 − 90 % of 67.9915.
        #expect(
            Self.close(
                Self.proceeds(Fixture.customers, rules: ProceedsRules(smallBusinessProgram: true)),
                ["USD": [25.4745, 76.483, -52.70085]]))
        var german = Fixture.period(
            "G1", "G1", "premium.monthly", from: Fixture.date(1, 5), to: Fixture.date(2, 5), price: 11_990)
        german.storefront = "DEU"
        german.currency = "EUR"
        var evidence = EvidenceSet()
        evidence.insert(german)
        // 11.99 includes 19 % VAT: 11.99 / 1.19 × 0.7 = 7.0529…
        #expect(
            Self.close(
                Self.proceeds([evidence], rules: ProceedsRules(taxRates: ["DEU": 0.19])), ["EUR": [7.0529, 0, 0]]))
        #expect(ProceedsRules(taxRates: ["DEU": 19]).problem?.contains("storefrontTaxRates.DEU") == true)
        #expect(ProceedsRules(taxRates: ["de": 0.19]).problem?.contains("storefronts such as DEU") == true)
    }

    @Test("realized LTV: each cohort's proceeds so far per customer, from the cohort's month on")
    func realizedLTV() {
        // January's cohort is A, B, C (a trial only) and E: 4 customers; their proceeds so far are 20.979 by
        // January's end (A1, B2, E1), 27.972 by February's (A2) and 34.965 by March's (A3). February's is D alone:
        // 55.993, then 55.993 less its refund's 50.394 (March 10).
        let january: [Double] = [20.979 / 4, 27.972 / 4, 34.965 / 4]
        let february: [Double] = [0, 55.993, 5.599]
        let expected: [String: [Double]] = ["USD 2026-01": january, "USD 2026-02": february]
        #expect(Self.close(Fixture.compute(.realizedLTV), expected))
    }

    @Test("splitting or merging computations changes nothing: two halves merged equal one computation")
    func mergedHalves() {
        for name in [MetricName.revenue, .proceeds, .realizedLTV, .arr, .churnRate, .refundRate, .mrrMovement] {
            let query = MetricQuery(
                name: name, from: Fixture.date(1, 1, hour: 0), to: Fixture.date(4, 1, hour: 0), interval: .week,
                now: Fixture.date(3, 20))
            var whole = MetricAccumulator(query)
            var first = MetricAccumulator(query)
            var second = MetricAccumulator(query)
            for (index, customer) in Fixture.customers.enumerated() {
                whole.add(customer)
                if index % 2 == 0 { first.add(customer) } else { second.add(customer) }
            }
            first.merge(second)
            #expect(first.series() == whole.series(), "\(name)")
        }
    }
}
