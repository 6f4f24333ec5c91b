// A transcription of the StoreKit 2 declarations StoreKit2Store uses, from Apple's documentation: signatures and
// availability only (the bodies never run; this module is only compiled against, on Linux). Each declaration
// names the page it was read from. Nothing here is Apple's code.
public import Foundation

/// https://developer.apple.com/documentation/storekit/product
@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
public struct Product: Identifiable, Equatable, Hashable, Sendable {
    /// https://developer.apple.com/documentation/storekit/product/id
    public let id: String
    /// https://developer.apple.com/documentation/storekit/product/displayprice
    public let displayPrice: String
    /// https://developer.apple.com/documentation/storekit/product/price
    public let price: Decimal
    /// https://developer.apple.com/documentation/storekit/product/priceformatstyle
    public let priceFormatStyle: Decimal.FormatStyle.Currency
    /// https://developer.apple.com/documentation/storekit/product/subscription
    public let subscription: Product.SubscriptionInfo?

    /// https://developer.apple.com/documentation/storekit/product/products(for:)
    public static func products<Identifiers: Collection>(for identifiers: Identifiers) async throws -> [Product]
    where Identifiers.Element == String {
        fatalError("a transcription for type-checking; never run")
    }

    /// https://developer.apple.com/documentation/storekit/product/purchase(options:)
    public func purchase(options: Set<Product.PurchaseOption> = []) async throws -> Product.PurchaseResult {
        fatalError("a transcription for type-checking; never run")
    }

    /// https://developer.apple.com/documentation/storekit/product/purchaseoption
    public struct PurchaseOption: Hashable, Sendable {
        /// https://developer.apple.com/documentation/storekit/product/purchaseoption/promotionaloffer(offerid:keyid:nonce:signature:timestamp:)
        public static func promotionalOffer(
            offerID: String, keyID: String, nonce: UUID, signature: Data, timestamp: Int
        ) -> Product.PurchaseOption {
            fatalError("a transcription for type-checking; never run")
        }
    }

    /// https://developer.apple.com/documentation/storekit/product/purchaseresult
    public enum PurchaseResult: Sendable {
        /// https://developer.apple.com/documentation/storekit/product/purchaseresult/success(_:)
        case success(VerificationResult<Transaction>)
        /// https://developer.apple.com/documentation/storekit/product/purchaseresult/usercancelled
        case userCancelled
        /// https://developer.apple.com/documentation/storekit/product/purchaseresult/pending
        case pending
    }

    /// https://developer.apple.com/documentation/storekit/product/purchaseerror
    public enum PurchaseError: Error, Equatable, Hashable, Sendable {
        /// https://developer.apple.com/documentation/storekit/product/purchaseerror/invalidquantity
        case invalidQuantity
        /// https://developer.apple.com/documentation/storekit/product/purchaseerror/productunavailable
        case productUnavailable
        /// https://developer.apple.com/documentation/storekit/product/purchaseerror/purchasenotallowed
        case purchaseNotAllowed
        /// https://developer.apple.com/documentation/storekit/product/purchaseerror/ineligibleforoffer
        case ineligibleForOffer
        /// https://developer.apple.com/documentation/storekit/product/purchaseerror/invalidofferidentifier
        case invalidOfferIdentifier
        /// https://developer.apple.com/documentation/storekit/product/purchaseerror/invalidofferprice
        case invalidOfferPrice
        /// https://developer.apple.com/documentation/storekit/product/purchaseerror/invalidoffersignature
        case invalidOfferSignature
        /// https://developer.apple.com/documentation/storekit/product/purchaseerror/missingofferparameters
        case missingOfferParameters
    }

    /// https://developer.apple.com/documentation/storekit/product/subscriptioninfo
    public struct SubscriptionInfo: Equatable, Hashable, Sendable {
        /// https://developer.apple.com/documentation/storekit/product/subscriptioninfo/introductoryoffer
        public let introductoryOffer: Product.SubscriptionOffer?
        /// https://developer.apple.com/documentation/storekit/product/subscriptioninfo/subscriptionperiod
        public let subscriptionPeriod: Product.SubscriptionPeriod
    }

    /// https://developer.apple.com/documentation/storekit/product/subscriptionoffer
    public struct SubscriptionOffer: Equatable, Hashable, Sendable {
        /// https://developer.apple.com/documentation/storekit/product/subscriptionoffer/displayprice
        public let displayPrice: String
        /// https://developer.apple.com/documentation/storekit/product/subscriptionoffer/period
        public let period: Product.SubscriptionPeriod
        /// https://developer.apple.com/documentation/storekit/product/subscriptionoffer/periodcount
        public let periodCount: Int
        /// https://developer.apple.com/documentation/storekit/product/subscriptionoffer/paymentmode-swift.property
        public let paymentMode: Product.SubscriptionOffer.PaymentMode

        /// https://developer.apple.com/documentation/storekit/product/subscriptionoffer/paymentmode-swift.struct
        public struct PaymentMode: Equatable, Hashable, RawRepresentable, Sendable {
            /// https://developer.apple.com/documentation/storekit/product/subscriptionoffer/paymentmode-swift.struct/rawvalue
            public let rawValue: String
            /// https://developer.apple.com/documentation/storekit/product/subscriptionoffer/paymentmode-swift.struct/init(rawvalue:)
            public init(rawValue: String) { self.rawValue = rawValue }
            /// https://developer.apple.com/documentation/storekit/product/subscriptionoffer/paymentmode-swift.struct/freetrial
            public static let freeTrial = PaymentMode(rawValue: "FreeTrial")
            /// https://developer.apple.com/documentation/storekit/product/subscriptionoffer/paymentmode-swift.struct/payasyougo
            public static let payAsYouGo = PaymentMode(rawValue: "PayAsYouGo")
            /// https://developer.apple.com/documentation/storekit/product/subscriptionoffer/paymentmode-swift.struct/payupfront
            public static let payUpFront = PaymentMode(rawValue: "PayUpFront")
        }
    }

    /// https://developer.apple.com/documentation/storekit/product/subscriptionperiod
    public struct SubscriptionPeriod: Equatable, Hashable, Sendable {
        /// https://developer.apple.com/documentation/storekit/product/subscriptionperiod/unit-swift.property
        public let unit: Product.SubscriptionPeriod.Unit
        /// https://developer.apple.com/documentation/storekit/product/subscriptionperiod/value
        public let value: Int

        /// https://developer.apple.com/documentation/storekit/product/subscriptionperiod/unit-swift.enum
        public enum Unit: Equatable, Hashable, Sendable {
            /// https://developer.apple.com/documentation/storekit/product/subscriptionperiod/unit-swift.enum/day
            case day
            /// https://developer.apple.com/documentation/storekit/product/subscriptionperiod/unit-swift.enum/week
            case week
            /// https://developer.apple.com/documentation/storekit/product/subscriptionperiod/unit-swift.enum/month
            case month
            /// https://developer.apple.com/documentation/storekit/product/subscriptionperiod/unit-swift.enum/year
            case year
        }
    }
}
