// A transcription of StoreKit 1's requests and products as StoreKit1Store uses them (see Product.swift for what
// this module is). `Bundle.appStoreReceiptURL` is Foundation's, and swift-corelibs-foundation declares it too.
public import Foundation

/// https://developer.apple.com/documentation/storekit/skrequest
open class SKRequest: NSObject {
    /// https://developer.apple.com/documentation/storekit/skrequest/delegate
    open weak var delegate: (any SKRequestDelegate)?
    /// https://developer.apple.com/documentation/storekit/skrequest/start()
    open func start() {}
}

/// https://developer.apple.com/documentation/storekit/skrequestdelegate
public protocol SKRequestDelegate: NSObjectProtocol {
    // Both requirements are optional in Objective-C; the adapter implements them as plain methods:
    // https://developer.apple.com/documentation/storekit/skrequestdelegate/requestdidfinish(_:)
    // https://developer.apple.com/documentation/storekit/skrequestdelegate/request(_:didfailwitherror:)
}

/// https://developer.apple.com/documentation/storekit/skproductsrequest
open class SKProductsRequest: SKRequest {
    /// https://developer.apple.com/documentation/storekit/skproductsrequest/init(productidentifiers:)
    public init(productIdentifiers: Set<String>) {}
}

/// https://developer.apple.com/documentation/storekit/skproductsrequestdelegate
public protocol SKProductsRequestDelegate: SKRequestDelegate {
    /// https://developer.apple.com/documentation/storekit/skproductsrequestdelegate/productsrequest(_:didreceive:)
    func productsRequest(_ request: SKProductsRequest, didReceive response: SKProductsResponse)
}

/// https://developer.apple.com/documentation/storekit/skreceiptrefreshrequest
open class SKReceiptRefreshRequest: SKRequest {}

/// https://developer.apple.com/documentation/storekit/skproductsresponse (its Relationships: Sendable)
open class SKProductsResponse: NSObject, @unchecked Sendable {
    /// https://developer.apple.com/documentation/storekit/skproductsresponse/products
    open var products: [SKProduct] { [] }
}

/// https://developer.apple.com/documentation/storekit/skproduct (Sendable, like the response that carries it:
/// the SDK's headers mark both `NS_SWIFT_SENDABLE`)
open class SKProduct: NSObject, @unchecked Sendable {
    /// https://developer.apple.com/documentation/storekit/skproduct/productidentifier
    open var productIdentifier: String { "" }
    /// https://developer.apple.com/documentation/storekit/skproduct/price
    open var price: NSDecimalNumber { .zero }
    /// https://developer.apple.com/documentation/storekit/skproduct/pricelocale
    open var priceLocale: Locale { Locale(identifier: "en_US") }
    /// https://developer.apple.com/documentation/storekit/skproduct/introductoryprice
    open var introductoryPrice: SKProductDiscount? { nil }
    /// https://developer.apple.com/documentation/storekit/skproduct/subscriptionperiod
    open var subscriptionPeriod: SKProductSubscriptionPeriod? { nil }

    /// https://developer.apple.com/documentation/storekit/skproduct/periodunit
    public enum PeriodUnit: UInt, Sendable {
        /// https://developer.apple.com/documentation/storekit/skproduct/periodunit/day
        case day = 0
        /// https://developer.apple.com/documentation/storekit/skproduct/periodunit/week
        case week = 1
        /// https://developer.apple.com/documentation/storekit/skproduct/periodunit/month
        case month = 2
        /// https://developer.apple.com/documentation/storekit/skproduct/periodunit/year
        case year = 3
    }
}

/// https://developer.apple.com/documentation/storekit/skproductdiscount
open class SKProductDiscount: NSObject {
    /// https://developer.apple.com/documentation/storekit/skproductdiscount/price
    open var price: NSDecimalNumber { .zero }
    /// https://developer.apple.com/documentation/storekit/skproductdiscount/paymentmode-swift.property
    open var paymentMode: SKProductDiscount.PaymentMode { .payAsYouGo }
    /// https://developer.apple.com/documentation/storekit/skproductdiscount/subscriptionperiod
    open var subscriptionPeriod: SKProductSubscriptionPeriod { SKProductSubscriptionPeriod() }
    /// https://developer.apple.com/documentation/storekit/skproductdiscount/numberofperiods
    open var numberOfPeriods: Int { 1 }

    /// https://developer.apple.com/documentation/storekit/skproductdiscount/paymentmode-swift.enum
    public enum PaymentMode: UInt, Sendable {
        /// https://developer.apple.com/documentation/storekit/skproductdiscount/paymentmode-swift.enum/payasyougo
        case payAsYouGo = 0
        /// https://developer.apple.com/documentation/storekit/skproductdiscount/paymentmode-swift.enum/payupfront
        case payUpFront = 1
        /// https://developer.apple.com/documentation/storekit/skproductdiscount/paymentmode-swift.enum/freetrial
        case freeTrial = 2
    }
}

/// https://developer.apple.com/documentation/storekit/skproductsubscriptionperiod
open class SKProductSubscriptionPeriod: NSObject {
    /// https://developer.apple.com/documentation/storekit/skproductsubscriptionperiod/numberofunits
    open var numberOfUnits: Int { 1 }
    /// https://developer.apple.com/documentation/storekit/skproductsubscriptionperiod/unit
    open var unit: SKProduct.PeriodUnit { .month }
}
