public import Foundation

/// Extend a Subscription Renewal Date response.
public struct ExtendRenewalDateResponse: Codable, Sendable, Hashable {
    /// The original purchase.
    @Lenient public var originalTransactionId: String?
    /// The extended renewal.
    @Lenient public var webOrderLineItemId: String?
    /// Whether the extension succeeded.
    @Lenient public var success: Bool?
    /// The new renewal date.
    @Lenient public var effectiveDate: Date?

    /// Makes an empty value; set the fields you need.
    public init() {}
}
