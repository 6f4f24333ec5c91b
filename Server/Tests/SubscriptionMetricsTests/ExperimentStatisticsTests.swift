import Foundation
import Testing

@testable import SubscriptionMetrics

/// The experiment verdicts, by hand on small numbers and calibrated on simulated experiments: a 95 % interval
/// covers the true difference about 95 % of the time, an A/A test rarely calls a winner, and a real effect is found.
@Suite struct ExperimentStatisticsTests {
    @Test("conversion by hand: Beta(1 + k, 1 + n − k) posteriors, their mean difference and its normal interval")
    func conversionByHand() {
        let verdicts = ExperimentStatistics.conversion(conversions: [10, 20], enrolled: [100, 100])
        #expect(verdicts[0].difference == nil)
        let (a0, b0, a1, b1) = (11.0, 91.0, 21.0, 81.0)
        let expected = a1 / (a1 + b1) - a0 / (a0 + b0)
        let spread =
            1.959_963_984_540_054
            * (a0 * b0 / (pow(a0 + b0, 2) * (a0 + b0 + 1)) + a1 * b1 / (pow(a1 + b1, 2) * (a1 + b1 + 1))).squareRoot()
        let difference = try! #require(verdicts[1].difference)
        #expect(abs(difference.value - expected) < 1e-12)
        #expect(abs(difference.low - (expected - spread)) < 1e-12 && abs(difference.high - (expected + spread)) < 1e-12)
        // 20 % against 10 % with a hundred each: the second is very probably better.
        #expect(
            verdicts[1].probabilityBest > 0.95
                && abs(verdicts[0].probabilityBest + verdicts[1].probabilityBest - 1) < 1e-9)
        // The same data give the same answer (seeded draws).
        #expect(ExperimentStatistics.conversion(conversions: [10, 20], enrolled: [100, 100]) == verdicts)
    }

    @Test("a mean by hand: the difference of means with a Welch interval; an empty variant has none")
    func meanByHand() {
        let verdicts = ExperimentStatistics.mean(values: [[1, 2, 3], [2, 4, 6]])
        let difference = try! #require(verdicts[1].difference)
        // Means 2 and 4; variances of the means 1/3 and 4/3.
        #expect(abs(difference.value - 2) < 1e-12)
        #expect(abs(difference.high - difference.value - 1.959_963_984_540_054 * (5.0 / 3).squareRoot()) < 1e-12)
        let empty = ExperimentStatistics.mean(values: [[1, 2], []])
        #expect(empty[1].difference == nil && empty[1].probabilityBest == 0 && empty[0].probabilityBest == 1)
    }

    /// A simulated experiment: `n` customers per arm converting with the given rates.
    static func simulate(_ rates: [Double], n: Int, _ random: inout SplitMix) -> [Int] {
        rates.map { rate in (0..<n).reduce(0) { count, _ in count + (random.uniform() < rate ? 1 : 0) } }
    }

    @Test("calibration: an A/A test's interval covers 0 about 95 % of the time and rarely calls a winner")
    func calibrationAA() {
        var random = SplitMix(seed: 42)
        var covered = 0
        var winners = 0
        var sumBest = 0.0
        let runs = 400
        for run in 0..<runs {
            let counts = Self.simulate([0.1, 0.1], n: 500, &random)
            let verdict = ExperimentStatistics.conversion(
                conversions: counts, enrolled: [500, 500], draws: 2_000, seed: UInt64(run))[1]
            if let d = verdict.difference, d.low <= 0, d.high >= 0 { covered += 1 }
            if verdict.probabilityBest > 0.95 { winners += 1 }
            sumBest += verdict.probabilityBest
        }
        #expect((0.92...0.98).contains(Double(covered) / Double(runs)), "coverage \(covered)/\(runs)")
        #expect(Double(winners) / Double(runs) <= 0.06, "false winners \(winners)/\(runs)")
        #expect(abs(sumBest / Double(runs) - 0.5) < 0.05, "mean probability best \(sumBest / Double(runs))")
    }

    @Test("calibration: a real lift (10 % to 14 %, 2,000 each) is found; the interval covers the true lift")
    func calibrationAB() {
        var random = SplitMix(seed: 7)
        var found = 0
        var covered = 0
        let runs = 200
        for run in 0..<runs {
            let counts = Self.simulate([0.10, 0.14], n: 2_000, &random)
            let verdict = ExperimentStatistics.conversion(
                conversions: counts, enrolled: [2_000, 2_000], draws: 2_000, seed: UInt64(run))[1]
            if verdict.probabilityBest > 0.95 { found += 1 }
            if let d = verdict.difference, d.low <= 0.04, d.high >= 0.04 { covered += 1 }
        }
        #expect(Double(found) / Double(runs) >= 0.9, "found \(found)/\(runs)")
        #expect((0.91...0.99).contains(Double(covered) / Double(runs)), "coverage \(covered)/\(runs)")
    }

    @Test("calibration: proceeds per customer (most zero, some paying) — the interval covers the true difference")
    func calibrationMeans() {
        var random = SplitMix(seed: 11)
        var covered = 0
        let runs = 300
        // Each customer pays 0 (88 %) or an exponential amount averaging 20 (12 %): mean 2.4 in both arms.
        func sample() -> [Double] {
            (0..<800).map { _ in random.uniform() < 0.12 ? -20 * log(random.uniform()) : 0 }
        }
        for run in 0..<runs {
            let verdict = ExperimentStatistics.mean(values: [sample(), sample()], draws: 1_000, seed: UInt64(run))[1]
            if let d = verdict.difference, d.low <= 0, d.high >= 0 { covered += 1 }
        }
        #expect((0.92...0.98).contains(Double(covered) / Double(runs)), "coverage \(covered)/\(runs)")
    }
}
