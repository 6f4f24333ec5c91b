import Foundation
import StoreKeeperAPI
import Testing

@testable import StoreKeeperServer

/// The cohort table is a left-aligned triangle: each cohort's row starts at its own month 0, whatever calendar month
/// that was, with its size from the months' new subscriptions.
@Suite struct CohortTableTests {
    static func month(_ number: Int) -> Date {
        var components = DateComponents(year: 2026, month: number, day: 1)
        components.timeZone = TimeZone(identifier: "UTC")
        return Calendar(identifier: .gregorian).date(from: components)!
    }

    static func series(_ key: String, _ values: [Double]) -> MetricSeriesBody {
        MetricSeriesBody(
            key: key, points: values.enumerated().map { MetricPoint(start: month($0.offset + 1), value: $0.element) })
    }

    @Test("January's cohort runs months 0-2, February's 0-1, each with its size")
    func triangle() {
        let cohorts = MetricResponse(
            name: "cohorts", interval: "month",
            series: [Self.series("2026-02", [0, 1, 0.75]), Self.series("2026-01", [1, 0.5, 0.5])])
        let sizes = MetricResponse(
            name: "new_subscriptions", interval: "month", series: [Self.series("all", [4, 8, 0])])
        let html = DashboardPages.cohortTable(cohorts, sizes: sizes)
        let rows = html.components(separatedBy: "<tr>").dropFirst(2).map { row in
            row.matches(of: /<td[^>]*>([^<]*)<\/td>/).map { String($0.output.1) }
        }
        #expect(html.contains("<th>month 2</th>") && !html.contains("<th>month 3</th>"))
        #expect(rows == [["4", "100 %", "50 %", "50 %"], ["8", "100 %", "75 %"]], "\(rows)")
        #expect(html.firstRange(of: "2026-01")!.lowerBound < html.firstRange(of: "2026-02")!.lowerBound)
        #expect(
            DashboardPages.cohortTable(MetricResponse(name: "cohorts", interval: "month", series: []), sizes: sizes)
                .contains("No cohort"))
    }
}
