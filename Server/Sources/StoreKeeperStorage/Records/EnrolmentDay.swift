/// How many customers were enrolled in one variant of an experiment on one UTC day (the dashboard's enrolment
/// chart, counted by the database).
public struct EnrolmentDay: Sendable, Hashable {
    /// The variant's identifier.
    public var variant: String
    /// The UTC day, counted from 1970-01-01 (day 0).
    public var day: Int
    /// Enrolments that day.
    public var count: Int

    /// Makes a day's count.
    public init(variant: String, day: Int, count: Int) {
        self.variant = variant
        self.day = day
        self.count = count
    }
}
