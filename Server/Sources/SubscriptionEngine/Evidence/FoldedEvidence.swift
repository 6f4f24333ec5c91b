/// Evidence split in two by ``SubscriptionEngine/fold(_:at:)``: what the engine's answers from the fold's instant
/// on depend on, and the history that only answers about the past need.
public struct FoldedEvidence: Sendable, Hashable {
    /// What every answer at or after the fold's instant is computed from (the same answer as from all of it).
    public var kept: EvidenceSet
    /// Superseded observations: past renewal periods and renewal info that later observations replaced.
    public var folded: EvidenceSet

    /// Makes a split.
    public init(kept: EvidenceSet, folded: EvidenceSet) {
        self.kept = kept
        self.folded = folded
    }
}
