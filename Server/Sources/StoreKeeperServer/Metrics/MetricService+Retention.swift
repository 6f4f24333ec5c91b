import Foundation
import StoreKeeperStorage
import SubscriptionMetrics

/// The retention metrics (`retention_requests`, `retention_saves`): the project's recorded answers, each with the
/// timeline of the subscription it was about (read for the subscriptions answered about, not the whole project).
extension MetricService {
    /// The series of each retention query, in order.
    func retention(_ queries: [MetricQuery], project: ProjectScope) async throws -> [[MetricSeries]] {
        guard let from = queries.map(\.from).min(), let to = queries.map(\.to).max() else { return [] }
        let answers = try await retention.retentionAnswers(project: project.id, from: from, to: to)
        var timelines: [String: SubscriptionTimeline] = [:]
        if queries.contains(where: { $0.name == .retentionSaves }) {
            for original in Set(answers.map(\.originalTransactionID)).sorted() {
                guard
                    let owner = try await store.owner(
                        originalTransactionKey: project.key(original), bundleIDs: apps.bundleIDs(in: project)),
                    let snapshot = try await store.snapshot(ProjectScope.value(ofKey: owner), in: project)
                else { continue }
                for timeline in SubscriptionTimeline.timelines(try await store.fullEvidence(snapshot))
                where timeline.originalTransactionID == original {
                    timelines[original] = timeline
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
