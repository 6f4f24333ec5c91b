public import Foundation

/// Counts Retention Messaging's work into buckets (``MetricName/retentionRequests`` and
/// ``MetricName/retentionSaves``), each answer in the bucket it was given in, so saves ÷ requests of a bucket is
/// its save rate (recent buckets still maturing: a save is known only when the period ends).
///
/// A save is an answer that showed something (not `default`) to a customer whose subscription then went on: a
/// period of it bought after the answer and beginning by the end of the period the customer was in plus Apple's
/// 60-day billing retry — a renewal at the period's end, the switched plan, or the offered promotion redeemed.
public struct RetentionAccumulator: Sendable {
    /// What is computed.
    public let query: MetricQuery
    let buckets: [DateInterval]
    var counts: [String: [Double]] = [:]

    /// How long after a period's end a renewal still keeps the customer (Apple's billing retry).
    static let renewalWindow: TimeInterval = 60 * 86_400

    /// Starts empty.
    public init(_ query: MetricQuery) {
        self.query = query
        buckets = query.interval.buckets(from: query.from, to: query.to)
    }

    /// The splits these metrics have: of the request (`product`, `environment`) and of the answer (`rule`,
    /// `response_kind`).
    public static let splits: Set<MetricSplit> = [.product, .environment, .rule, .responseKind]

    /// Adds one answer, with the timeline of the subscription it was about (`nil`: unknown, never a save).
    public mutating func add(_ answer: RetentionAnswer, timeline: SubscriptionTimeline?) {
        guard query.environments.contains(answer.environment), answer.at < query.now,
            let bucket = buckets.firstIndex(where: { $0.contains(answer.at) && $0.end != answer.at })
        else { return }
        switch query.name {
        case .retentionRequests: break
        case .retentionSaves: guard Self.isSave(answer, timeline: timeline, now: query.now) else { return }
        default: return
        }
        counts[key(answer), default: Array(repeating: 0, count: buckets.count)][bucket] += 1
    }

    /// Whether `answer` kept its customer, as the type's documentation defines it.
    public static func isSave(_ answer: RetentionAnswer, timeline: SubscriptionTimeline?, now: Date) -> Bool {
        guard answer.kind != "default", let periods = timeline?.periods,
            let current = periods.lastIndex(where: { $0.start <= answer.at })
        else { return false }
        let deadline = periods[current].expiresAt.addingTimeInterval(renewalWindow)
        return periods[(current + 1)...].contains { $0.start > answer.at && $0.start <= min(deadline, now) }
    }

    func key(_ answer: RetentionAnswer) -> String {
        switch query.split {
        case nil: "all"
        case .product?: answer.productID
        case .environment?: answer.environment
        case .rule?: answer.rule ?? "none"
        case .responseKind?: answer.kind
        case .storefront?, .offerType?: "unknown"
        }
    }

    /// The series, sorted by key; every bucket has a point.
    public func series() -> [MetricSeries] {
        let starts = buckets.map(\.start)
        guard !counts.isEmpty else {
            return [MetricSeries(key: query.split == nil ? "all" : "none", points: starts.map { ($0, 0) })]
        }
        return counts.keys.sorted().map { key in
            MetricSeries(key: key, points: zip(starts, counts[key]!).map { ($0, $1) })
        }
    }
}
