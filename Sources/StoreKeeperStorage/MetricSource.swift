import Foundation
public import SubscriptionEngine

/// What project-wide reads (metrics, timelines) stream through: pages of whole evidence, and which subscribers
/// changed since.
public protocol MetricSource: Sendable {
    /// Which subscribers' rows changed (this process's writes, and on PostgreSQL other processes' too).
    var changes: SubscriberChanges { get }

    /// One page of a project's subscribers' whole evidence (history included) in storage-key order, after `after`
    /// (`nil`: from the first): what project-wide reads (metrics) stream through, a page at a time.
    func evidencePage(in project: ProjectScope, after: String?, limit: Int) async throws -> [(
        storageKey: String, evidence: EvidenceSet
    )]
}
