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

    /// An enrolment.
    public init(projectID: String, experiment: String, appUserKey: String, variant: String, enrolledAt: Date) {
        self.projectID = projectID
        self.experiment = experiment
        self.appUserKey = appUserKey
        self.variant = variant
        self.enrolledAt = enrolledAt
    }
}
