/// What a metric's series are split by: each distinct value of the dimension is its own series.
public enum MetricSplit: String, Sendable, Hashable, CaseIterable, Codable {
    /// The product of the period.
    case product
    /// The storefront (ISO 3166-1 alpha-3).
    case storefront
    /// `Production`, `Sandbox`…
    case environment
    /// `free_trial`, `introductory`, `promotional`, `offer_code`, `win_back` or `none`.
    case offerType = "offer_type"
    /// The retention rule that answered (retention metrics only).
    case rule
    /// What a retention answer was: `message`, `alternate_product`, `promotional_offer` or `default` (retention
    /// metrics only).
    case responseKind = "response_kind"

    /// The value of this dimension for a period.
    func value(of period: SubscriptionPeriod) -> String {
        switch self {
        case .product: period.productID
        case .storefront: period.storefront ?? "unknown"
        case .environment: period.environment
        case .offerType: period.offerType
        case .rule, .responseKind: "none"
        }
    }
}
