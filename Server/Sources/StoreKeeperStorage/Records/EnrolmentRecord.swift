public import Foundation

/// A customer enrolled in an experiment: the variant they were assigned and when.
public struct EnrolmentRecord: Sendable, Hashable {
    /// The project.
    public var projectID: String
    /// The experiment's identifier.
    public var experiment: String
    /// The customer's stored key when enrolled (``ProjectScope/key(_:)`` of their id then).
    public var appUserKey: String
    /// The variant's identifier.
    public var variant: String
    /// When they were enrolled.
    public var enrolledAt: Date
    /// Its place in the order enrolments were recorded (0 before it is stored): breaks ties of ``enrolledAt``.
    public var sequence: Int64

    /// An enrolment.
    public init(
        projectID: String, experiment: String, appUserKey: String, variant: String, enrolledAt: Date,
        sequence: Int64 = 0
    ) {
        self.projectID = projectID
        self.experiment = experiment
        self.appUserKey = appUserKey
        self.variant = variant
        self.enrolledAt = enrolledAt
        self.sequence = sequence
    }

    /// Whether `self` came first: enrolled earlier, or at the same instant and recorded earlier. A customer merged
    /// from several ids keeps the first of their enrolments (the order stored reads return them in).
    public func isBefore(_ other: EnrolmentRecord) -> Bool {
        (enrolledAt, sequence) < (other.enrolledAt, other.sequence)
    }
}
