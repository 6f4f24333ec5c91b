/// What the app may sell now, as the server's offerings say and the store prices it: the offering to show
/// (``current``) and every offering by identifier. Changing an offering on the server changes the paywall without
/// an app release.
public struct Offerings: Sendable, Hashable {
    /// The offering to show this customer; `nil` when the project has none current.
    public var current: OfferingInfo?
    /// Every offering, by identifier.
    public var all: [String: OfferingInfo]
    /// Whether this came from the device's cache (the server could not be asked in time, or is being asked in the
    /// background) rather than from the server just now.
    public var isFromCache: Bool

    /// Makes offerings.
    public init(current: OfferingInfo?, all: [String: OfferingInfo], isFromCache: Bool) {
        self.current = current
        self.all = all
        self.isFromCache = isFromCache
    }

    /// The offering of `identifier`, if there is one.
    public subscript(identifier: String) -> OfferingInfo? { all[identifier] }
}
