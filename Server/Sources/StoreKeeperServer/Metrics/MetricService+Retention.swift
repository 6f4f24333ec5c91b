import Foundation
import StoreKeeperStorage
import SubscriptionMetrics

/// The retention metrics (`retention_requests`, `retention_saves`): the project's recorded answers, each with the
/// timeline of the subscription it was about (from the kept timelines when a query already read them, otherwise
/// read for the subscriptions answered about alone).
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
                // Only the subscriptions answered about, each from its owner's whole evidence.
                for original in asked.sorted() {
                    guard
                        let owner = try await store.owner(
                            originalTransactionKey: project.key(original), bundleIDs: apps.bundleIDs(in: project)),
                        let snapshot = try await store.snapshot(ProjectScope.value(ofKey: owner), in: project)
                    else { continue }
                    keep(SubscriptionTimeline.timelines(try await store.fullEvidence(snapshot)))
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
