public import AppStoreModels

/// Why a subscription stopped.
public enum ExpirationReason: String, Sendable, Hashable, Codable {
    /// The customer turned auto-renew off.
    case voluntary
    /// Billing failed and retrying ended.
    case billingError
    /// The customer did not accept a price increase.
    case priceIncreaseDeclined
    /// The product was not available at renewal.
    case productUnavailable
    /// Any other reason.
    case other

    /// Maps Apple's expiration intent.
    /// - Parameter intent: `expiration_intent` / `expirationIntent`.
    public init(_ intent: ExpirationIntent) {
        switch intent {
        case .customerCancelled: self = .voluntary
        case .billingError: self = .billingError
        case .priceIncreaseDeclined: self = .priceIncreaseDeclined
        case .productUnavailable: self = .productUnavailable
        case .other, .unknown: self = .other
        }
    }
}
