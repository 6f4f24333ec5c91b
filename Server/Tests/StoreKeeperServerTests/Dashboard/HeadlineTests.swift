import Foundation
import StoreKeeperAPI
import Testing

@testable import StoreKeeperServer

/// The overview's headline figures, worked out by hand from 61 daily points: snapshots now against 30 days
/// earlier, flows summed over the last 30 days against the 30 before, the churn rate as the last 30 days' churn over
/// the subscriptions active the day before they began.
@Suite struct HeadlineTests {
    static func response(_ name: String, _ series: [String: [Double]]) -> MetricResponse {
        MetricResponse(
            name: name, interval: "day",
            series: series.sorted { $0.key < $1.key }.map { key, values in
                MetricSeriesBody(
                    key: key,
                    points: values.enumerated().map {
                        MetricPoint(start: Date(timeIntervalSince1970: Double($0.offset) * 86_400), value: $0.element)
                    })
            })
    }

    @Test("MRR and ARR now against 30 days ago, revenue per 30 days, the churn rate over the active base")
    func figures() throws {
        // Day 0…60: MRR 10 until day 30, then 15; revenue 1 a day, 2 a day in the last 30 days; 100 active, 2 of
        // them churning on each of days 31…60 (60 in the last 30 days: 60 / 100), 1 a day before (30 / 100).
        let mrr = (0...60).map { $0 <= 30 ? 10.0 : 15.0 }
        let revenue = (0...60).map { $0 <= 30 ? 1.0 : 2.0 }
        let churn = (0...60).map { $0 >= 31 ? 2.0 : ($0 >= 1 ? 1.0 : 0) }
        let results = [
            Self.response("revenue", ["USD": revenue]), Self.response("mrr", ["USD": mrr]),
            Self.response("active_subscriptions", ["all": Array(repeating: 100, count: 61)]),
            Self.response("churn", ["voluntary": churn]),
        ]
        let headlines = DashboardPages.headlines(results)
        func values(_ label: String) throws -> [(key: String, now: Double, before: Double)] {
            try #require(headlines.first { $0.label.hasPrefix(label) }).values
        }
        #expect(try values("MRR").map(\.now) == [15] && values("MRR").map(\.before) == [10])
        #expect(try values("ARR").map(\.now) == [180] && values("ARR").map(\.before) == [120])
        #expect(try values("Revenue").map(\.now) == [60] && values("Revenue").map(\.before) == [30])
        #expect(try values("Churn rate").map(\.now) == [0.6] && values("Churn rate").map(\.before) == [0.3])
        #expect(DashboardPages.change(15, 10) == "+50.0 % vs the 30 days before")
        #expect(DashboardPages.change(5, 10) == "−50.0 % vs the 30 days before")
        #expect(DashboardPages.change(3, 0) == "new" && DashboardPages.change(0, 0) == "–")
    }
}
