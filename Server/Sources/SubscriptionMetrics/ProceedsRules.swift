/// What the developer keeps of a price: the price less the storefront's sales tax or VAT where the price includes
/// it, less Apple's commission — 30 %, or 15 % for a subscription's periods that begin once the subscriber has
/// accumulated a year of paid service in the subscription group (paid days keep accumulating across plan changes in
/// the group and across lapses of up to 60 days; free trials and free offers add none), or 15 % throughout for a
/// developer in the App Store Small Business Program. Apple's rule: developer.apple.com/app-store/subscriptions
/// ("Net revenue after a year"). An estimate: Apple's financial reports also round per transaction, pay in the
/// bank's currency and settle taxes per jurisdiction.
public struct ProceedsRules: Sendable, Hashable, Codable {
    /// Whether the developer is in the Small Business Program (15 % commission on every period).
    public var smallBusinessProgram: Bool
    /// The sales tax or VAT included in each storefront's prices (ISO 3166-1 alpha-3 → rate, `DEU` → 0.19);
    /// a storefront without a rate has prices before tax (the United States and Canada price without it).
    public var taxRates: [String: Double]

    /// Makes the rules.
    public init(smallBusinessProgram: Bool = false, taxRates: [String: Double] = [:]) {
        self.smallBusinessProgram = smallBusinessProgram
        self.taxRates = taxRates
    }

    /// Paid days after which the commission drops to the reduced rate.
    public static let yearOfService = 365.0
    /// A lapse of paid service longer than this (in days) starts the count again.
    public static let longestLapse = 60.0

    /// Apple's commission on a period that begins after `paidDays` days of paid service.
    public func commission(afterPaidDays paidDays: Double) -> Double {
        smallBusinessProgram || paidDays >= Self.yearOfService ? 0.15 : 0.30
    }

    /// The proceeds of `price` in `storefront` after `paidDays` of paid service.
    public func proceeds(of price: Double, storefront: String?, afterPaidDays paidDays: Double) -> Double {
        let tax = storefront.flatMap { taxRates[$0] } ?? 0
        return price / (1 + tax) * (1 - commission(afterPaidDays: paidDays))
    }

    /// The rules written out in one line (`small_business=false DEU=0.19 FRA=0.2`): rollups counted with other
    /// rules are counted again.
    public var fingerprint: String {
        (["small_business=\(smallBusinessProgram)"]
            + taxRates.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" })
            .joined(separator: " ")
    }

    /// The reason the rules cannot be used, naming the field and value, or `nil`.
    public var problem: String? {
        for (storefront, rate) in taxRates.sorted(by: { $0.key < $1.key }) {
            guard storefront.count == 3, storefront.allSatisfy({ $0.isASCII && $0.isUppercase }) else {
                return
                    "storefrontTaxRates has the key \"\(storefront.prefix(20))\"; keys must be storefronts such as DEU"
            }
            guard rate.isFinite, rate >= 0, rate < 1 else {
                return "storefrontTaxRates.\(storefront) is \(rate); it must be from 0 to less than 1 (0.19 for 19 %)"
            }
        }
        return nil
    }
}
