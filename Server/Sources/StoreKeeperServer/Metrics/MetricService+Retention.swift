import Foundation
import StoreKeeperStorage
import SubscriptionMetrics

/// The retention metrics (`retention_requests`, `retention_saves`): the project's recorded answers, each with the
/// timeline of the subscription it was about (from the kept timelines, or a scan when they cannot serve).
extension MetricService {
    /// The series of each retention query, in order.
    func retention(_ queries: [MetricQuery], project: ProjectScope, kept: [[SubscriptionTimeline]]?) async throws
        -> [[MetricSeries]]
    {
        guard let from = queries.map(\.from).min(), let to = queries.map(\.to).max() else { return [] }
        let answers = try await store.retentionAnswers(project: project.id, from: from, to: to)
        var timelines: [String: SubscriptionTimeline] = [:]
        if queries.contains(where: { $0.name == .retentionSaves }), !answers.isEmpty {
            let asked = Set(answers.map(\.originalTransactionID))
            let keep = { (customer: [SubscriptionTimeline]) in
                for timeline in customer where asked.contains(timeline.originalTransactionID) {
                    timelines[timeline.originalTransactionID] = timeline
                }
            }
            if let kept {
                kept.forEach(keep)
            } else {
                try await MetricTimelineCache.scan(project, store: store) { _, customer in
                    keep(customer)
                    return true
                }
            }
        }
        return queries.map { query in
            var accumulator = RetentionAccumulator(query)
            for answer in answers {
                accumulator.add(answer, timeline: timelines[answer.originalTransactionID])
            }
            return accumulator.series()
        }
    }
}
