import Foundation

/// An offer applied to a subscription period.
public struct SubscriptionOffer: Codable, Sendable, Hashable {
    /// `freeTrial`, `introPayAsYouGo`, `introPayUpFront`, `introductory`, `promotional`, `offerCode` or `winBack`.
    public var kind: String
    /// The offer's identifier (promotional offers, offer codes, win-back offers).
    public var identifier: String?

    /// Makes an offer.
    public init(kind: String, identifier: String?) {
        self.kind = kind
        self.identifier = identifier
    }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable { case kind, identifier }
}
