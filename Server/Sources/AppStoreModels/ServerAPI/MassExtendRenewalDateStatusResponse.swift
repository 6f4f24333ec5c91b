public import Foundation

/// Get Status of Subscription Renewal Date Extensions: how a mass extension went.
public struct MassExtendRenewalDateStatusResponse: Codable, Sendable, Hashable {
    /// The request's identifier.
    @Lenient public var requestIdentifier: String?
    /// Whether Apple finished it.
    @Lenient public var complete: Bool?
    /// When it finished.
    @Lenient public var completeDate: Date?
    /// Subscriptions extended.
    @Lenient public var succeededCount: Int64?
    /// Subscriptions that could not be.
    @Lenient public var failedCount: Int64?

    /// Makes an empty value; set the fields you need.
    public init() {}
}
