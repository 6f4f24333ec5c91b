import Foundation
public import SubscriptionEngine

/// What project-wide reads (metrics, timelines) stream through: pages of whole evidence, read beside
/// ``EvidenceStore/changes``, which says which subscribers changed since.
public protocol MetricSource: Sendable {
    /// One page of a project's subscribers' whole evidence (history included) in storage-key order, after `after`
    /// (`nil`: from the first): what project-wide reads (metrics) stream through, a page at a time.
    func evidencePage(in project: ProjectScope, after: String?, limit: Int) async throws -> [(
        storageKey: String, evidence: EvidenceSet
    )]
}
