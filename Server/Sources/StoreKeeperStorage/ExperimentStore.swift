/// Experiment enrolments: who was assigned which variant, once each.
public protocol ExperimentStore: Sendable {
    /// The enrolments in `experiment` of any of `appUserKeys` (a customer's stored key and their aliases').
    func enrolments(projectID: String, experiment: String, appUserKeys: [String]) async throws -> [EnrolmentRecord]

    /// Every enrolment in `experiment`, oldest first.
    func enrolments(projectID: String, experiment: String) async throws -> [EnrolmentRecord]

    /// Records an enrolment, with its `experiment_enrolled` event on the customer, in one transaction — unless the
    /// same key is enrolled in the experiment already (then nothing is written).
    /// - Returns: Whether it was recorded.
    func enrol(_ enrolment: EnrolmentRecord) async throws -> Bool
}
