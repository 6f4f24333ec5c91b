public import Foundation

/// One request to extend every active subscriber of a product, as support made it and Apple accepted it.
public struct MassExtensionRecord: Sendable, Hashable {
    /// The project it was made in.
    public var project: ProjectScope
    /// Its id: the `requestIdentifier` Apple was given (a lowercase UUID).
    public var id: String
    /// The app whose subscribers Apple extends.
    public var bundleID: String
    /// The product whose active subscribers Apple extends.
    public var productID: String
    /// Days added to each renewal date.
    public var days: Int
    /// Why, by name (`service_issue`…).
    public var reason: String
    /// Only subscribers of these storefronts (empty: all).
    public var storefronts: [String]
    /// When support asked (the server's clock).
    public var requestedAt: Date

    /// Makes a record.
    public init(
        project: ProjectScope, id: String, bundleID: String, productID: String, days: Int, reason: String,
        storefronts: [String], requestedAt: Date
    ) {
        self.project = project
        self.id = id
        self.bundleID = bundleID
        self.productID = productID
        self.days = days
        self.reason = reason
        self.storefronts = storefronts
        self.requestedAt = requestedAt
    }
}
