import AppStoreModels
import Foundation
import SubscriptionEngine
import Testing

@testable import SubscriptionMetrics

/// Every metric on a small fixed history whose values are worked out by hand (below, customer by customer).
///
/// - A: premium.monthly 9.99, Jan 1 → renewed Feb 1 and Mar 1; still renewing.
/// - B: a 7-day free trial from Jan 10, converted Jan 17 (9.99 to Feb 17), then auto-renew off: ends Feb 17.
/// - C: a 7-day free trial from Jan 20, auto-renew off: ends Jan 27 unconverted.
/// - D: premium.annual 79.99 from Feb 5, refunded 90 % on Mar 10.
/// - E: premium.monthly 9.99 from Jan 5; billing fails at Feb 5 (no grace): ends Feb 5.
/// - F: a sandbox purchase, left out by default.
@Suite struct MetricAccumulatorTests {
    static func date(_ month: Int, _ day: Int, hour: Int = 12) -> Date {
        var components = DateComponents(year: 2026, month: month, day: day, hour: hour)
        components.timeZone = TimeZone(identifier: "UTC")
        return Calendar(identifier: .gregorian).date(from: components)!
    }

    static func period(
        _ id: String, _ original: String, _ product: String, from: Date, to: Date, price: Int64,
        trial: Bool = false, environment: AppStoreEnvironment = .production, group: String? = nil
    ) -> Transaction {
        var transaction = Transaction(
            transactionID: id, originalTransactionID: original, productID: product, source: .signedData)
        transaction.kind = .autoRenewable
        transaction.purchaseDate = from
        transaction.originalPurchaseDate = from
        transaction.expiresAt = to
        transaction.price = trial ? 0 : price
        transaction.currency = "USD"
        transaction.storefront = "USA"
        transaction.environment = environment
        transaction.offer = trial ? Offer(kind: .freeTrial) : nil
        transaction.observedAt = from
        transaction.subscriptionGroupID = group
        return transaction
    }

    static func renewal(_ original: String, autoRenew: Bool, intent: ExpirationIntent?, retry: Bool = false)
        -> RenewalState
    {
        var renewal = RenewalState(originalTransactionID: original, source: .signedData)
        renewal.willAutoRenew = autoRenew
        renewal.expirationIntent = intent
        renewal.isInBillingRetry = retry
        renewal.observedAt = date(3, 15)
        return renewal
    }

    static let customers: [EvidenceSet] = {
        func set(_ transactions: [Transaction], _ renewals: [RenewalState] = []) -> EvidenceSet {
            var evidence = EvidenceSet()
            transactions.forEach { evidence.insert($0) }
            renewals.forEach { evidence.insert($0) }
            return evidence
        }
        var refunded = period(
            "D1", "D1", "premium.annual", from: date(2, 5), to: date(2, 5).addingTimeInterval(365 * 86_400),
            price: 79_990)
        refunded.revokedAt = date(3, 10)
        refunded.revocationType = .refundProrated
        refunded.revocationPercentage = 90_000
        return [
            set([
                period("A1", "A1", "premium.monthly", from: date(1, 1), to: date(2, 1), price: 9_990),
                period("A2", "A1", "premium.monthly", from: date(2, 1), to: date(3, 1), price: 9_990),
                period("A3", "A1", "premium.monthly", from: date(3, 1), to: date(4, 1), price: 9_990),
            ]),
            set(
                [
                    period("B1", "B1", "premium.monthly", from: date(1, 10), to: date(1, 17), price: 0, trial: true),
                    period("B2", "B1", "premium.monthly", from: date(1, 17), to: date(2, 17), price: 9_990),
                ], [renewal("B1", autoRenew: false, intent: .customerCancelled)]),
            set(
                [period("C1", "C1", "premium.monthly", from: date(1, 20), to: date(1, 27), price: 0, trial: true)],
                [renewal("C1", autoRenew: false, intent: .customerCancelled)]),
            set([refunded]),
            set(
                [period("E1", "E1", "premium.monthly", from: date(1, 5), to: date(2, 5), price: 9_990)],
                [renewal("E1", autoRenew: true, intent: .billingError, retry: false)]),
            set([
                period(
                    "F1", "F1", "premium.monthly", from: date(1, 3), to: date(2, 3), price: 9_990, environment: .sandbox
                )
            ]),
        ]
    }()

    /// Billing trouble and returns, worked out by hand:
    /// - G: Jan 2 → Feb 2; billing fails, grace until Feb 18; recovers Feb 10 (→ Mar 10), renews Mar 10.
    /// - H: Jan 3 → Feb 3; billing fails without grace; recovers Feb 20 (→ Mar 18), then ends.
    /// - I: Jan 4 → Feb 4, auto-renew off; a new subscription in the same group on Mar 15.
    static let returns: [EvidenceSet] = {
        func set(_ transactions: [Transaction], _ renewals: [RenewalState] = []) -> EvidenceSet {
            var evidence = EvidenceSet()
            transactions.forEach { evidence.insert($0) }
            renewals.forEach { evidence.insert($0) }
            return evidence
        }
        var grace = RenewalState(originalTransactionID: "G1", source: .signedData)
        grace.isInBillingRetry = true
        grace.gracePeriodExpiresAt = date(2, 18)
        grace.observedAt = date(2, 3)
        var renewed = RenewalState(originalTransactionID: "G1", source: .signedData)
        renewed.willAutoRenew = true
        renewed.observedAt = date(3, 10)
        let monthly = "premium.monthly"
        return [
            set(
                [
                    period("G1", "G1", monthly, from: date(1, 2), to: date(2, 2), price: 9_990, group: "pro"),
                    period("G2", "G1", monthly, from: date(2, 10), to: date(3, 10), price: 9_990, group: "pro"),
                    period("G3", "G1", monthly, from: date(3, 10), to: date(4, 10), price: 9_990, group: "pro"),
                ], [grace, renewed]),
            set([
                period("H1", "H1", monthly, from: date(1, 3), to: date(2, 3), price: 9_990, group: "pro"),
                period("H2", "H1", monthly, from: date(2, 20), to: date(3, 18), price: 9_990, group: "pro"),
            ]),
            set(
                [
                    period("I1", "I1", monthly, from: date(1, 4), to: date(2, 4), price: 9_990, group: "pro"),
                    period("I2", "I2", monthly, from: date(3, 15), to: date(4, 15), price: 9_990, group: "pro"),
                ], [renewal("I1", autoRenew: false, intent: .customerCancelled)]),
        ]
    }()

    static func compute(
        _ name: MetricName, customers: [EvidenceSet] = Self.customers, interval: MetricInterval = .month,
        from: Date = date(1, 1, hour: 0),
        to: Date = date(4, 1, hour: 0), split: MetricSplit? = nil, environments: Set<String> = ["Production"]
    ) -> [String: [Double]] {
        var metric = MetricAccumulator(
            MetricQuery(
                name: name, from: from, to: to, interval: interval, split: split, environments: environments,
                now: date(3, 20)))
        customers.forEach { metric.add($0) }
        return Dictionary(uniqueKeysWithValues: metric.series().map { ($0.key, $0.points.map(\.value)) })
    }

    @Test("active subscriptions at each month's end (the current month: now), trials on chosen days")
    func actives() {
        #expect(Self.compute(.activeSubscriptions) == ["all": [3, 2, 1]])
        let trials = Self.compute(
            .activeTrials, interval: .day, from: Self.date(1, 1, hour: 0), to: Self.date(2, 1, hour: 0))
        let days = trials["all"] ?? []
        #expect(days.count == 31)
        #expect([days[11], days[17], days[20], days[27]] == [1, 0, 1, 0], "Jan 12, 18, 21, 28")
    }

    @Test("MRR normalises each paid period to a month, per currency, and can be split by product")
    func mrr() {
        #expect(Self.compute(.mrr) == ["USD": [29.97, 16.656, 9.99]])
        #expect(
            Self.compute(.mrr, split: .product) == [
                "premium.monthly USD": [29.97, 9.99, 9.99], "premium.annual USD": [0, 6.666, 0],
            ])
    }

    @Test(
        "a reporting currency adds one series summing every currency at its rate; a currency without a rate is left out"
    )
    func reportingCurrency() {
        func paid(_ id: String, currency: String, price: Int64) -> EvidenceSet {
            var transaction = Self.period(
                id, id, "premium.monthly", from: Self.date(1, 3), to: Self.date(2, 3), price: price)
            transaction.currency = currency
            var evidence = EvidenceSet()
            evidence.insert(transaction)
            return evidence
        }
        let customers = [
            paid("U", currency: "USD", price: 10_000), paid("E", currency: "EUR", price: 9_000),
            paid("J", currency: "JPY", price: 1_500_000), paid("X", currency: "CHF", price: 9_000),
        ]
        var query = MetricQuery(
            name: .mrr, from: Self.date(1, 1, hour: 0), to: Self.date(2, 1, hour: 0), interval: .month,
            now: Self.date(3, 20))
        query.reporting = ReportingCurrency(code: "USD", rates: ["EUR": 1.1, "JPY": 0.0065])
        var metric = MetricAccumulator(query)
        customers.forEach { metric.add($0) }
        let series = Dictionary(uniqueKeysWithValues: metric.series().map { ($0.key, $0.points.map(\.value)) })
        #expect(series["USD"] == [10] && series["EUR"] == [9] && series["JPY"] == [1_500] && series["CHF"] == [9])
        let reported = series["reporting USD"]?.first ?? 0
        #expect(abs(reported - (10 + 9 * 1.1 + 1_500 * 0.0065)) < 1e-9, "\(reported)")  // CHF has no rate
        #expect(ReportingCurrency(code: "usd", rates: [:]).problem?.contains("ISO 4217") == true)
        #expect(
            ReportingCurrency(code: "USD", rates: ["EUR": 0]).problem
                == "exchangeRates.EUR is 0.0; it must be a positive number")
    }

    @Test("new subscriptions, renewals and trial conversion by the month they happened in")
    func flows() {
        #expect(Self.compute(.newSubscriptions) == ["all": [4, 1, 0]])
        #expect(Self.compute(.renewals) == ["all": [1, 1, 1]])
        #expect(Self.compute(.trialConversion) == ["all": [0.5, 0, 0]])
    }

    @Test("churn split voluntary / involuntary; refunds counted and summed; sandbox only when asked for")
    func endings() {
        #expect(Self.compute(.churn) == ["voluntary": [1, 1, 0], "involuntary": [0, 1, 0]])
        #expect(Self.compute(.refunds) == ["count": [0, 0, 1], "amount USD": [0, 0, 71.991]])
        #expect(Self.compute(.newSubscriptions, environments: ["Sandbox"]) == ["all": [1, 0, 0]])
        #expect(
            Self.compute(.newSubscriptions, split: .environment, environments: ["Production", "Sandbox"]) == [
                "Production": [4, 1, 0], "Sandbox": [1, 0, 0],
            ])
    }

    @Test("recoveries within grace or after it, reactivations, churn that a recovery undoes, and cohorts")
    func returnsAndCohorts() {
        #expect(Self.compute(.graceRecoveries, customers: Self.returns) == ["all": [0, 1, 0]])
        #expect(Self.compute(.billingRecoveries, customers: Self.returns) == ["all": [0, 1, 0]])
        #expect(Self.compute(.reactivations, customers: Self.returns) == ["all": [0, 0, 1]])
        #expect(Self.compute(.churn, customers: Self.returns) == ["voluntary": [0, 1, 0], "other": [0, 0, 1]])
        let cohorts = Self.compute(.cohorts, customers: Self.returns)
        #expect(Set(cohorts.keys) == ["2026-01", "2026-03"])
        #expect(cohorts["2026-01"]?.map { ($0 * 1000).rounded() / 1000 } == [1, 0.667, 0.333])
        #expect(cohorts["2026-03"] == [0, 0, 1])
    }

    @Test("weeks start on Monday and months on the 1st, in UTC; every bucket has a point")
    func buckets() {
        let weeks = MetricInterval.week.buckets(from: Self.date(1, 1), to: Self.date(1, 15))
        #expect(weeks.first?.start == Self.date(12, 29, hour: 0).addingTimeInterval(-365 * 86_400))
        #expect(weeks.count == 3)
        var empty = MetricAccumulator(
            MetricQuery(
                name: .churn, from: Self.date(1, 1), to: Self.date(3, 1, hour: 0), interval: .month,
                now: Self.date(3, 20)))
        empty.add(EvidenceSet())
        #expect(empty.series().map(\.key) == ["all"] && empty.series()[0].points.map(\.value) == [0, 0])
    }
}
