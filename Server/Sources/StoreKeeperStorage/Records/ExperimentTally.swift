public import Foundation

/// An experiment's results kept as sums (its rollup): one ``VariantTally`` per variant, the sum of every counted
/// enrolment's stored ``ExperimentOutcomeRow``, and how far through the project's event feed the rows are current.
/// Reading results reads this, whatever the number of enrolments.
public struct ExperimentTally: Sendable, Hashable {
    /// What the rows were counted with (the proceeds rules and reporting currency); another mark means a rebuild.
    public var mark: String
    /// Changes with every rebuild, so a writer that started before one cannot write into it.
    public var generation: String
    /// Every event up to here is counted in the rows (`nil`: none yet).
    public var cursor: EventFeedCursor?
    /// Whether every enrolment has a row (a build finished).
    public var ready: Bool
    /// The sums, by variant identifier.
    public var variants: [String: VariantTally]
    /// When a writer last moved it (the database's writer's clock): a build not ready whose last move is recent
    /// is being counted by someone, and is waited for rather than started again.
    public var updatedAt: Date?

    /// Makes a tally.
    public init(
        mark: String, generation: String, cursor: EventFeedCursor?, ready: Bool, variants: [String: VariantTally],
        updatedAt: Date? = nil
    ) {
        self.mark = mark
        self.generation = generation
        self.cursor = cursor
        self.ready = ready
        self.variants = variants
        self.updatedAt = updatedAt
    }
}
