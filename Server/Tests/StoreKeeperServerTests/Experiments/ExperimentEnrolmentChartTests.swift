import Foundation
import StoreKeeperAPI
import StoreKeeperStorage
import Testing

@testable import StoreKeeperServer

/// The dashboard's enrolment chart: each variant's enrolments so far at the end of each UTC day since the
/// experiment started, from the database's counts per day.
@Suite struct ExperimentEnrolmentChartTests {
    static let start = Date(timeIntervalSince1970: 20_454 * 86_400 + 3_600)  // one in the morning, UTC

    @Test("counts per day add up day by day, from the start's day to now; a variant nobody joined stays at 0")
    func cumulative() {
        let experiment = Experiment(
            identifier: "x",
            variants: [
                ExperimentVariant(identifier: "a", offeringID: "o1", weight: 50),
                ExperimentVariant(identifier: "b", offeringID: "o2", weight: 30),
                ExperimentVariant(identifier: "c", offeringID: "o3", weight: 20),
            ], status: "running", startedAt: Self.start)
        let days = [
            EnrolmentDay(variant: "a", day: 20_454, count: 3), EnrolmentDay(variant: "b", day: 20_454, count: 1),
            EnrolmentDay(variant: "a", day: 20_456, count: 2), EnrolmentDay(variant: "b", day: 20_455, count: 4),
        ]
        let chart = ExperimentService.enrolment(
            experiment, days: days.reversed(), now: Self.start.addingTimeInterval(3 * 86_400))
        #expect(chart.series.map(\.key) == ["a", "b", "c"])
        #expect(chart.series[0].points.map(\.value) == [3, 3, 5, 5])
        #expect(chart.series[1].points.map(\.value) == [1, 5, 5, 5])
        #expect(chart.series[2].points.map(\.value) == [0, 0, 0, 0])
        #expect(chart.series[0].points.first?.start == Date(timeIntervalSince1970: 20_454 * 86_400))
    }
}
