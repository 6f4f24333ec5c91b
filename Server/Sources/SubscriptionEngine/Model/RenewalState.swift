public import AppStoreModels
public import Foundation

/// What happens at a subscription's next renewal, normalised from `pending_renewal_info` and JWS renewal info.
/// A snapshot: the newest observation per original transaction wins as a whole.
public struct RenewalState: Sendable, Hashable, Codable {
    /// The subscription.
    public var originalTransactionID: String
    /// The product currently subscribed to.
    public var productID: String?
    /// The product that renews next (a pending downgrade or crossgrade when it differs).
    public var autoRenewProductID: String?
    /// Whether it will renew.
    public var willAutoRenew: Bool?
    /// Why it expired.
    public var expirationIntent: ExpirationIntent?
    /// Whether Apple is retrying a failed renewal.
    public var isInBillingRetry: Bool?
    /// When the billing grace period ends.
    public var gracePeriodExpiresAt: Date?
    /// Price increase consent.
    public var priceIncreaseStatus: PriceIncreaseStatus?
    /// The offer at the next renewal.
    public var offer: Offer?
    /// The next renewal date, when known.
    public var renewalDate: Date?
    /// The environment.
    public var environment: AppStoreEnvironment?
    /// Whether a new commitment starts when a commitment plan's commitment ends (off: the customer cancelled;
    /// billing still runs to the commitment's end).
    public var commitmentWillAutoRenew: Bool?
    /// The product the next commitment is for.
    public var commitmentAutoRenewProductID: String?
    /// When the next commitment starts.
    public var commitmentRenewalDate: Date?
    /// When this observation was made.
    public var observedAt: Date?
    /// Where it came from.
    public var source: EvidenceSource

    /// Makes an observation.
    /// - Parameters:
    ///   - originalTransactionID: The subscription.
    ///   - source: Where it came from.
    public init(originalTransactionID: String, source: EvidenceSource) {
        self.originalTransactionID = originalTransactionID
        self.source = source
    }

    /// The newest of several observations of one subscription's renewal state.
    /// - Parameter observations: At least one observation.
    /// - Returns: The newest by (``observedAt``, ``source``, content).
    public static func newest(_ observations: [RenewalState]) -> RenewalState {
        observations.max { ObservationOrder.precedes($0, $1) }!
    }
}
