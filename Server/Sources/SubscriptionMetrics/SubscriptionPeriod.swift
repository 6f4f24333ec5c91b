public import Foundation
import SubscriptionEngine

/// One paid or trial period of a subscription, as it happened: what the metrics count.
public struct SubscriptionPeriod: Sendable, Hashable {
    /// The product.
    public var productID: String
    /// When it began.
    public var start: Date
    /// When access from it ended or ends: its expiry, an earlier refund or upgrade, or a later grace end.
    public var accessEnd: Date
    /// Its expiry (the renewal date it was bought until).
    public var expiresAt: Date
    /// When it was refunded (not an upgrade, not a family revocation), if it was.
    public var refundedAt: Date?
    /// The refunded share in thousandths of a percent (100000 for a full refund).
    public var refundedShare: Int
    /// The price in milliunits of ``currency``.
    public var price: Int64
    /// ISO 4217.
    public var currency: String
    /// The storefront.
    public var storefront: String?
    /// `Production`, `Sandbox`… (`Production` when the evidence does not say).
    public var environment: String
    /// The offer's kind in snake case, `none` without one.
    public var offerType: String
    /// Whether it is a free trial.
    public var isTrial: Bool
    /// Its nominal length in months (a week is 12/52), from its own dates.
    public var months: Double
    /// The days of paid service it stands for when it stands for a run of folded periods (``FoldedPeriods``);
    /// `nil` for a period of its own, whose paid days are its length.
    public var foldedPaidDays: Double? = nil
    /// Within a rollup contribution, the index of its split dimensions in the contribution's table
    /// (``RollupKeyParser``), so the accumulator names its series with a few bytes; -1 elsewhere. Scratch: no part
    /// of the period's value (equality, hashing).
    @Scratch var rollupDimensions = -1

    /// The days of paid service it adds when paid: its length, or the run's it stands for.
    public var paidDays: Double { foldedPaidDays ?? max(0, expiresAt.timeIntervalSince(start)) / 86_400 }
}

extension SubscriptionPeriod {
    /// Makes a period standing for a run of folded periods with `paidDays` of paid service (a stored run read
    /// back, ``FoldedPeriods``).
    public init(
        productID: String, start: Date, accessEnd: Date, expiresAt: Date, price: Int64, currency: String,
        storefront: String?, environment: String, offerType: String, isTrial: Bool, months: Double, paidDays: Double
    ) {
        self.productID = productID
        self.start = start
        self.accessEnd = accessEnd
        self.expiresAt = expiresAt
        self.refundedAt = nil
        self.refundedShare = 100_000
        self.price = price
        self.currency = currency
        self.storefront = storefront
        self.environment = environment
        self.offerType = offerType
        self.isTrial = isTrial
        self.months = months
        self.foldedPaidDays = paidDays
    }
}
