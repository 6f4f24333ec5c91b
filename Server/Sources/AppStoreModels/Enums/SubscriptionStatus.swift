/// Subscription status (Get All Subscription Statuses, notification `data.status`).
///
/// Unknown raw values decode to ``unknown(_:)`` instead of failing.
public enum SubscriptionStatus: OpenEnum {
    /// Active.
    case active
    /// Expired.
    case expired
    /// In billing retry.
    case billingRetry
    /// In the billing grace period.
    case billingGracePeriod
    /// Revoked.
    case revoked
    /// A value Apple added after this code was written.
    case unknown(Int)

    /// Every known case with its raw value.
    public static let known: [(SubscriptionStatus, Int)] = [
        (.active, 1),
        (.expired, 2),
        (.billingRetry, 3),
        (.billingGracePeriod, 4),
        (.revoked, 5),
    ]

    /// The raw value when this is ``unknown(_:)``.
    public var unknownRawValue: Int? {
        if case .unknown(let raw) = self { return raw }
        return nil
    }
}
