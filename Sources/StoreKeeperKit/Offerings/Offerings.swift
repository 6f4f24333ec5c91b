public import StoreKeeperAPI

/// What the app may sell now, as the server's offerings say and the store prices it: the offering to show
/// (``current``) and every offering by identifier. Changing an offering on the server changes the paywall without
/// an app release.
public struct Offerings: Sendable, Hashable {
    /// The offering to show this customer; `nil` when the project has none current.
    public var current: OfferingInfo?
    /// Every offering, by identifier.
    public var all: [String: OfferingInfo]
    /// The experiment the customer is enrolled in, whose variant chose ``current`` (`nil` when none).
    public var experiment: ExperimentAssignment?
    /// The targeting rule that chose ``current`` (`nil` when none did).
    public var targetingRule: String?
    /// Whether this came from the device's cache (the server could not be asked in time, or is being asked in the
    /// background) rather than from the server just now.
    public var isFromCache: Bool

    /// Makes offerings.
    public init(
        current: OfferingInfo?, all: [String: OfferingInfo], isFromCache: Bool,
        experiment: ExperimentAssignment? = nil, targetingRule: String? = nil
    ) {
        self.current = current
        self.all = all
        self.isFromCache = isFromCache
        self.experiment = experiment
        self.targetingRule = targetingRule
    }

    /// The offering of `identifier`, if there is one.
    public subscript(identifier: String) -> OfferingInfo? { all[identifier] }
}
