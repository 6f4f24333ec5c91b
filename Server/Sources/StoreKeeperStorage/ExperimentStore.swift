/// Experiment enrolments: who was assigned which variant, once each.
public protocol ExperimentStore: Sendable {
    /// The enrolments in `experiment` of any of `appUserKeys` (a customer's stored key and their aliases').
    func enrolments(projectID: String, experiment: String, appUserKeys: [String]) async throws -> [EnrolmentRecord]

    /// Every enrolment in `experiment`, oldest first.
    func enrolments(projectID: String, experiment: String) async throws -> [EnrolmentRecord]

    /// How many were enrolled in each variant of `experiment` on each UTC day, counted in the database (no
    /// enrolment is read).
    func enrolmentDays(projectID: String, experiment: String) async throws -> [EnrolmentDay]

    /// Records an enrolment, with its `experiment_enrolled` event on the customer, in one transaction — unless the
    /// same key is enrolled in the experiment already (then nothing is written).
    /// - Returns: Whether it was recorded.
    func enrol(_ enrolment: EnrolmentRecord) async throws -> Bool

    /// Records each of `enrolments` not recorded yet, each with its `experiment_enrolled` event, in one
    /// transaction (imports and benchmarks; a duplicate within `enrolments` is recorded once).
    /// - Returns: How many were recorded.
    func enrol(all enrolments: [EnrolmentRecord]) async throws -> Int

    /// An experiment's tally (its results' rollup), `nil` before its first build.
    func experimentTally(projectID: String, experiment: String) async throws -> ExperimentTally?

    /// Starts a build of an experiment's tally: its rows deleted, a new generation with `mark`, the cursor at
    /// `cursor`, not ready.
    func resetExperimentTally(projectID: String, experiment: String, mark: String, cursor: EventFeedCursor?)
        async throws -> ExperimentTally

    /// In one transaction, when the stored tally still has `expected`'s generation and cursor: writes `rows` (each
    /// replacing its enrolment's stored row), moves the sums by what they change, and sets `cursor` and `ready`.
    /// - Returns: The tally now; `nil` when another writer moved it first (then nothing is written).
    func commitExperimentRows(
        _ rows: [ExperimentOutcomeRow], projectID: String, experiment: String, expected: ExperimentTally,
        cursor: EventFeedCursor?, ready: Bool
    ) async throws -> ExperimentTally?

    /// The customers `keys` name, each once, with every key naming them and whether the server holds their row.
    func keyGroups(_ keys: [String]) async throws -> [KeyGroup]
}
