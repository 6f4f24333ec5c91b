import Foundation
import Testing

@testable import SubscriptionMetrics

/// `conversion_to_paying` by hand: customers in the bucket of their first start; converted when a paid period
/// begins within 7 (30) days; counted only once the window has closed.
@Suite struct ConversionToPayingTests {
    static let day: TimeInterval = 86_400
    /// 2026-01-01T00:00:00Z.
    static let origin = Date(timeIntervalSince1970: 1_767_225_600)

    static func period(_ start: Double, days: Double = 30, trial: Bool = false, price: Int64 = 9_990)
        -> SubscriptionPeriod
    {
        let begin = origin.addingTimeInterval(start * day)
        return SubscriptionPeriod(
            productID: "monthly", start: begin, accessEnd: begin.addingTimeInterval(days * day),
            expiresAt: begin.addingTimeInterval(days * day), refundedAt: nil, refundedShare: 100_000,
            price: trial ? 0 : price, currency: "USD", storefront: "USA", environment: "Production",
            offerType: trial ? "free_trial" : "none", isTrial: trial, months: days / 30)
    }

    static func customer(_ id: String, _ periods: [SubscriptionPeriod]) -> [SubscriptionTimeline] {
        [
            SubscriptionTimeline(
                originalTransactionID: id, periods: periods, endReason: "other", group: "g", graceEnds: [])
        ]
    }

    // January (days 0–30): a buys at once (both windows); b's trial from day 4 converts on day 12, 8 days on (30d
    // only); c's
    // trial lapses (neither); d's first period is a 10-day trial, then pays on day 35 (neither: 33 days after).
    // February: e starts on day 50 and pays at once, f's trial starts on day 55 and converts on day 62.
    static let customers: [[SubscriptionTimeline]] = [
        customer("a", [period(2)]),
        customer("b", [period(4, days: 7, trial: true), period(12)]),
        customer("c", [period(8, days: 7, trial: true)]),
        customer("d", [period(2, days: 10, trial: true), period(35)]),
        customer("e", [period(50)]),
        customer("f", [period(55, days: 7, trial: true), period(62)]),
    ]

    static func counted(now: Double) -> [String: [Double]] {
        var accumulator = MetricAccumulator(
            MetricQuery(
                name: .conversionToPaying, from: origin, to: origin.addingTimeInterval(59 * day), interval: .month,
                now: origin.addingTimeInterval(now * day)))
        for timelines in customers { accumulator.add(timelines: timelines) }
        return Dictionary(uniqueKeysWithValues: accumulator.series().map { ($0.key, $0.points.map(\.value)) })
    }

    @Test("the share converted within 7 and 30 days, by the month the customer was first seen")
    func shares() {
        // Day 100: every window closed. January: 7d a (1 of 4); 30d a, b (2 of 4). February: 7d e, f (2 of 2).
        let late = Self.counted(now: 100)
        #expect(late["7d"] == [0.25, 1])
        #expect(late["30d"] == [0.5, 1])
    }

    @Test("a customer whose window is still open is not counted yet")
    func openWindows() {
        // Day 40: January's 30-day windows closed (first starts 2–8, ends 32–38); February's 7-day ones not (57, 62).
        let early = Self.counted(now: 40)
        #expect(early["7d"] == [0.25, 0])
        #expect(early["30d"] == [0.5, 0])
        // Day 58: e's 7-day window closed (day 57), f's not (day 62).
        #expect(Self.counted(now: 58)["7d"] == [0.25, 1])
    }
}
