import Foundation

/// How an experiment's variants compare, each with the first variant (the baseline):
///
/// - **Conversion** (a share of customers): each variant's rate has a Beta(1 + conversions, 1 + others)
///   posterior (a uniform prior). The difference to the baseline is the difference of the posterior means with a
///   95 % interval from the normal approximation of the two posteriors; the probability that a variant is best is
///   the share of joint posterior draws in which its rate is the highest.
/// - **Proceeds per customer** (a mean of skewed amounts): each variant's mean has a normal sampling distribution
///   with the sample's standard error. The difference to the baseline has a 95 % interval from the two standard
///   errors (Welch); the probability best is the share of joint draws in which its mean is the highest.
///
/// Draws come from a seeded generator, so the same data always give the same answer.
public enum ExperimentStatistics {
    /// A variant compared: its difference to the baseline with a 95 % interval (`nil` for the baseline), and the
    /// probability it is the best of all variants.
    public struct Verdict: Sendable, Hashable {
        /// The variant's value minus the baseline's, and the interval's ends.
        public var difference: (value: Double, low: Double, high: Double)?
        /// The probability the variant is the best.
        public var probabilityBest: Double

        /// Makes a verdict.
        public init(difference: (value: Double, low: Double, high: Double)?, probabilityBest: Double) {
            self.difference = difference
            self.probabilityBest = probabilityBest
        }

        /// Equal when every number is.
        public static func == (lhs: Verdict, rhs: Verdict) -> Bool {
            lhs.probabilityBest == rhs.probabilityBest && lhs.difference?.value == rhs.difference?.value
                && lhs.difference?.low == rhs.difference?.low && lhs.difference?.high == rhs.difference?.high
        }

        /// Hashes the probability and the difference.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(probabilityBest)
            hasher.combine(difference?.value)
        }
    }

    /// The two-sided 95 % normal quantile.
    static let z95 = 1.959_963_984_540_054

    /// Conversion verdicts: `conversions[i]` of `enrolled[i]` customers converted in variant `i`.
    public static func conversion(conversions: [Int], enrolled: [Int], draws: Int = 20_000, seed: UInt64 = 1)
        -> [Verdict]
    {
        let posteriors = zip(conversions, enrolled).map { (a: Double($0 + 1), b: Double(max(0, $1 - $0) + 1)) }
        let means = posteriors.map { $0.a / ($0.a + $0.b) }
        let variances = posteriors.map { p in p.a * p.b / ((p.a + p.b) * (p.a + p.b) * (p.a + p.b + 1)) }
        var random = SplitMix(seed: seed)
        let best = probabilitiesBest(count: posteriors.count, draws: draws) { index in
            let p = posteriors[index]
            let x = random.gamma(shape: p.a)
            return x / (x + random.gamma(shape: p.b))
        }
        return verdicts(means: means, variances: variances, best: best)
    }

    /// Verdicts on a per-customer mean: `values[i]` are variant `i`'s customers' amounts.
    public static func mean(values: [[Double]], draws: Int = 20_000, seed: UInt64 = 1) -> [Verdict] {
        mean(
            samples: values.map { sample in
                Sample(
                    count: sample.count, sum: sample.reduce(0, +), squares: sample.reduce(0) { $0 + $1 * $1 })
            }, draws: draws, seed: seed)
    }

    /// A variant's amounts as sums: how many, their sum and the sum of their squares (what a rollup keeps).
    public struct Sample: Sendable, Hashable {
        /// How many customers.
        public var count: Int
        /// Their amounts' sum.
        public var sum: Double
        /// Their amounts' squares' sum.
        public var squares: Double

        /// Makes a sample.
        public init(count: Int, sum: Double, squares: Double) {
            self.count = count
            self.sum = sum
            self.squares = squares
        }

        /// The mean (0 for no customers).
        var mean: Double { count == 0 ? 0 : sum / Double(count) }

        /// The mean's variance (the sample variance over the count); infinite for no customers, 0 for one.
        var varianceOfMean: Double {
            guard count > 1 else { return count == 0 ? .infinity : 0 }
            let n = Double(count)
            // Never below 0, which rounding of nearly equal amounts could give.
            return max(0, (squares - sum * sum / n) / (n - 1)) / n
        }
    }

    /// Verdicts on a per-customer mean, from each variant's ``Sample``.
    public static func mean(samples: [Sample], draws: Int = 20_000, seed: UInt64 = 1) -> [Verdict] {
        let means = samples.map(\.mean)
        let variances = samples.map(\.varianceOfMean)
        var random = SplitMix(seed: seed)
        let best = probabilitiesBest(count: samples.count, draws: draws) { index in
            guard variances[index].isFinite else { return -.infinity }
            return means[index] + variances[index].squareRoot() * random.normal()
        }
        return verdicts(means: means, variances: variances, best: best)
    }

    static func verdicts(means: [Double], variances: [Double], best: [Double]) -> [Verdict] {
        means.indices.map { index in
            guard index > 0, let baseline = means.first else {
                return Verdict(difference: nil, probabilityBest: best[index])
            }
            let spread = z95 * (variances[index] + variances[0]).squareRoot()
            // A variant (or baseline) with too few customers to say anything has no interval.
            guard spread.isFinite else { return Verdict(difference: nil, probabilityBest: best[index]) }
            let difference = means[index] - baseline
            return Verdict(
                difference: (difference, difference - spread, difference + spread), probabilityBest: best[index])
        }
    }

    /// The share of `draws` joint draws (`draw(i)` for each variant `i`) in which each variant is the highest.
    static func probabilitiesBest(count: Int, draws: Int, draw: (Int) -> Double) -> [Double] {
        guard count > 0, draws > 0 else { return Array(repeating: 0, count: count) }
        var wins = Array(repeating: 0, count: count)
        for _ in 0..<draws {
            var bestIndex = 0
            var bestValue = -Double.infinity
            for index in 0..<count {
                let value = draw(index)
                if value > bestValue {
                    bestValue = value
                    bestIndex = index
                }
            }
            wins[bestIndex] += 1
        }
        return wins.map { Double($0) / Double(draws) }
    }
}

/// SplitMix64 with the normal and gamma draws the statistics need.
struct SplitMix {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in (0, 1).
    mutating func uniform() -> Double { (Double(next() >> 11) + 0.5) / Double(1 << 53) }

    /// Standard normal (Box–Muller).
    mutating func normal() -> Double {
        (-2 * log(uniform())).squareRoot() * cos(2 * .pi * uniform())
    }

    /// Gamma(shape, 1) (Marsaglia and Tsang; shapes below 1 boosted).
    mutating func gamma(shape: Double) -> Double {
        if shape < 1 { return gamma(shape: shape + 1) * pow(uniform(), 1 / shape) }
        let d = shape - 1.0 / 3
        let c = 1 / (9 * d).squareRoot()
        while true {
            var x: Double
            var v: Double
            repeat {
                x = normal()
                v = 1 + c * x
            } while v <= 0
            v = v * v * v
            let u = uniform()
            if u < 1 - 0.0331 * x * x * x * x || log(u) < 0.5 * x * x + d * (1 - v + log(v)) { return d * v }
        }
    }
}
