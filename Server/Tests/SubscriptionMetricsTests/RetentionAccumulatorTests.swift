import Foundation
import Testing

@testable import SubscriptionMetrics

/// The retention metrics by hand: requests count in the month they were answered; a save is an answer that showed
/// something, followed by a period of the same subscription bought after it and beginning by the end of the
/// customer's period plus 60 days — and only once that period has begun by the server's clock.
@Suite struct RetentionAccumulatorTests {
    static let day: TimeInterval = 86_400
    /// 2026-01-01T00:00:00Z.
    static let origin = Date(timeIntervalSince1970: 1_767_225_600)

    static func at(_ days: Double) -> Date { origin.addingTimeInterval(days * day) }

    /// Monthly periods of one subscription starting on the given days (30 days long).
    static func timeline(_ id: String, starts: [Double], product: String = "monthly") -> SubscriptionTimeline {
        SubscriptionTimeline(
            originalTransactionID: id,
            periods: starts.map { start in
                SubscriptionPeriod(
                    productID: product, start: at(start), accessEnd: at(start + 30), expiresAt: at(start + 30),
                    refundedAt: nil, refundedShare: 100_000, price: 9_990, currency: "USD", storefront: "USA",
                    environment: "Production", offerType: "none", isTrial: false, months: 1)
            }, endReason: "voluntary", group: "pro", graceEnds: [])
    }

    static func answer(_ id: String, day: Double, kind: String = "promotional_offer", rule: String? = "offer")
        -> RetentionAnswer
    {
        RetentionAnswer(
            at: at(day), originalTransactionID: id, productID: "monthly", rule: rule, kind: kind,
            environment: "Production")
    }

    /// Three months (January to March 2026) by month, seen on `now`.
    static func counted(
        _ metric: MetricName, split: MetricSplit? = nil, now: Double,
        _ pairs: [(RetentionAnswer, SubscriptionTimeline?)]
    ) -> [String: [Double]] {
        var accumulator = RetentionAccumulator(
            MetricQuery(name: metric, from: origin, to: at(90), interval: .month, split: split, now: at(now)))
        for (answer, timeline) in pairs { accumulator.add(answer, timeline: timeline) }
        return Dictionary(uniqueKeysWithValues: accumulator.series().map { ($0.key, $0.points.map(\.value)) })
    }

    // a: asked on day 20 of its period 0–30, renewed on day 30: a save in January.
    // b: asked on day 25, lapsed: not a save.
    // c: asked on day 40 (period 30–60), resubscribed on day 125, more than 60 days after the period's end: not a
    //    save, even once it has happened.
    // d: asked on day 50 (period 30–60), switched plan on day 52 (a new period mid-period): a save in February.
    // e: asked on day 55, nothing answered (default): never a save, still a request.
    // f: asked on day 58, period 30–60, renewed on day 60: a save, but only known from day 60.
    static let pairs: [(RetentionAnswer, SubscriptionTimeline?)] = [
        (answer("a", day: 20), timeline("a", starts: [0, 30])),
        (answer("b", day: 25, kind: "message", rule: "message"), timeline("b", starts: [0])),
        (answer("c", day: 40), timeline("c", starts: [30, 125])),
        (answer("d", day: 50, kind: "alternate_product", rule: "switch"), timeline("d", starts: [30, 52])),
        (answer("e", day: 55, kind: "default", rule: nil), timeline("e", starts: [30, 60])),
        (answer("f", day: 58), timeline("f", starts: [30, 60])),
    ]

    @Test("requests count in the month they were answered, split by rule and by response kind")
    func requests() {
        #expect(Self.counted(.retentionRequests, now: 89, Self.pairs) == ["all": [2, 4, 0]])
        #expect(
            Self.counted(.retentionRequests, split: .rule, now: 89, Self.pairs) == [
                "message": [1, 0, 0], "none": [0, 1, 0], "offer": [1, 2, 0], "switch": [0, 1, 0],
            ])
        #expect(
            Self.counted(.retentionRequests, split: .responseKind, now: 89, Self.pairs) == [
                "alternate_product": [0, 1, 0], "default": [0, 1, 0], "message": [1, 0, 0],
                "promotional_offer": [1, 2, 0],
            ])
    }

    @Test("a save is a later period beginning by the period's end plus 60 days, counted in the request's month")
    func saves() {
        #expect(Self.counted(.retentionSaves, now: 89, Self.pairs) == ["all": [1, 2, 0]])
        #expect(
            Self.counted(.retentionSaves, split: .responseKind, now: 89, Self.pairs) == [
                "alternate_product": [0, 1, 0], "promotional_offer": [1, 1, 0],
            ])
        // On day 59, f's renewal has not happened yet: not known as a save.
        #expect(Self.counted(.retentionSaves, now: 59, Self.pairs) == ["all": [1, 1, 0]])
        // Long after, c's late return still is not one.
        #expect(Self.counted(.retentionSaves, now: 200, Self.pairs) == ["all": [1, 2, 0]])
    }

    @Test("an unknown subscription, another environment or an answer after now counts as no save")
    func edges() {
        var sandbox = Self.answer("g", day: 10)
        sandbox.environment = "Sandbox"
        let pairs: [(RetentionAnswer, SubscriptionTimeline?)] = [
            (Self.answer("h", day: 10), nil), (sandbox, Self.timeline("g", starts: [0, 30])),
            (Self.answer("i", day: 70), Self.timeline("i", starts: [60, 90])),
        ]
        #expect(Self.counted(.retentionSaves, now: 65, pairs) == ["all": [0, 0, 0]])
        #expect(Self.counted(.retentionRequests, now: 65, pairs) == ["all": [1, 0, 0]])
    }
}
