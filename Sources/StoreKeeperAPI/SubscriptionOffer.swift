import Foundation
public import StoreKeeperWire

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

extension SubscriptionOffer: JSONWritable {
    /// The keys in the order the API's encoder writes them.
    public static let jsonKeys = JSONKeys<CodingKeys>()

    /// Gives one member to `writer`: the one statement both the byte writer and ``encode(to:)`` follow.
    public func writeJSONMember<Sink: JSONMemberSink>(_ key: CodingKeys, to writer: inout Sink) {
        switch key {
        case .kind: writer.value(kind)
        case .identifier: if let identifier { writer.value(identifier) } else { writer.omit() }
        }
    }
}

extension SubscriptionOffer: APIDocumented {
    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .kind:
            .required(
                .oneOf([
                    "freeTrial", "introPayAsYouGo", "introPayUpFront", "introductory", "promotional", "offerCode",
                    "winBack",
                ]))
        case .identifier: .optional(.text.nullable)
        }
    }
}
