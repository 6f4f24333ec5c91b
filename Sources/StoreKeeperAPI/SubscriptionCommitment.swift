public import Foundation
public import StoreKeeperWire

/// Where a commitment plan stands: a subscription billed monthly within a 12-month commitment. Every period is
/// billed to the commitment's end; the customer can only decline the next commitment.
public struct SubscriptionCommitment: Codable, Sendable, Hashable {
    /// Which billing period of the commitment the current period is (1 through `totalBillingPeriods`).
    public var billingPeriod: Int?
    /// How many billing periods the commitment has (12).
    public var totalBillingPeriods: Int?
    /// When the commitment ends.
    public var endsAt: Date?
    /// The whole commitment's price, in milliunits of the subscription's currency.
    public var price: Int64?
    /// Whether a new commitment starts when this one ends (`false`: the customer cancelled it).
    public var willRenew: Bool?
    /// The product of the next commitment.
    public var renewsToProductID: String?

    /// Makes a commitment; set the fields as needed.
    public init() {}

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case billingPeriod = "billing_period", totalBillingPeriods = "total_billing_periods", endsAt = "ends_at"
        case price, willRenew = "will_renew", renewsToProductID = "renews_to_product_id"
    }
}

extension SubscriptionCommitment: JSONWritable {
    /// The keys in the order the API's encoder writes them.
    public static let jsonKeys = JSONKeys<CodingKeys>()

    /// Gives one member to `writer`: the one statement both the byte writer and ``encode(to:)`` follow.
    public func writeJSONMember<Sink: JSONMemberSink>(_ key: CodingKeys, to writer: inout Sink) {
        switch key {
        case .billingPeriod: writer.value(billingPeriod)
        case .totalBillingPeriods: writer.value(totalBillingPeriods)
        case .endsAt: writer.value(endsAt)
        case .price: writer.value(price)
        case .willRenew: writer.value(willRenew)
        case .renewsToProductID: writer.value(renewsToProductID)
        }
    }
}

extension SubscriptionCommitment: APIDocumented {
    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .billingPeriod: .required(.integer.nullable)
        case .totalBillingPeriods: .required(.integer.nullable)
        case .endsAt: .required(.dateTime.nullable)
        case .price: .required(.integer.nullable)
        case .willRenew: .required(.boolean.nullable)
        case .renewsToProductID: .required(.text.nullable)
        }
    }
}
