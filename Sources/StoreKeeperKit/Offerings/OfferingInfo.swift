public import StoreKeeperAPI

/// One offering: what a paywall sells, each package with its store product, and the paywall's own data.
public struct OfferingInfo: Sendable, Hashable, Identifiable {
    /// Its identifier on the server.
    public var identifier: String
    /// What it is for (the team's note).
    public var description: String
    /// What it sells, in the paywall's order: only packages whose product the store sells (a product not yet
    /// approved, or not sold in this storefront, is left out).
    public var packages: [PackageInfo]
    /// The paywall's data as the server holds it (copy, colours, feature lists).
    public var metadata: [String: JSONValue]

    /// Makes an offering.
    public init(identifier: String, description: String, packages: [PackageInfo], metadata: [String: JSONValue]) {
        self.identifier = identifier
        self.description = description
        self.packages = packages
        self.metadata = metadata
    }

    /// Its identifier.
    public var id: String { identifier }

    /// The package of `identifier` (`monthly`, `annual`…), if the offering sells it.
    public func package(_ identifier: String) -> PackageInfo? { packages.first { $0.identifier == identifier } }
}
