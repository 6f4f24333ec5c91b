// A transcription of the StoreKit 1 payment queue as StoreKit1Store uses it (see Product.swift for what this
// module is). Objective-C optional protocol requirements have no Linux spelling: they are plain requirements of
// nothing here, and the adapter's implementations are ordinary methods.
public import Foundation

/// https://developer.apple.com/documentation/storekit/skpaymentqueue
open class SKPaymentQueue: NSObject {
    /// https://developer.apple.com/documentation/storekit/skpaymentqueue/default()
    open class func `default`() -> SKPaymentQueue { SKPaymentQueue() }
    /// https://developer.apple.com/documentation/storekit/skpaymentqueue/canmakepayments()
    open class func canMakePayments() -> Bool { false }
    /// https://developer.apple.com/documentation/storekit/skpaymentqueue/transactions
    open var transactions: [SKPaymentTransaction] { [] }
    /// https://developer.apple.com/documentation/storekit/skpaymentqueue/add(_:)-6qsap (an observer)
    open func add(_ observer: any SKPaymentTransactionObserver) {}
    /// https://developer.apple.com/documentation/storekit/skpaymentqueue/add(_:)-6xmw7 (a payment)
    open func add(_ payment: SKPayment) {}
    /// https://developer.apple.com/documentation/storekit/skpaymentqueue/finishtransaction(_:)
    open func finishTransaction(_ transaction: SKPaymentTransaction) {}
    /// https://developer.apple.com/documentation/storekit/skpaymentqueue/restorecompletedtransactions()
    open func restoreCompletedTransactions() {}
}

/// https://developer.apple.com/documentation/storekit/skpaymenttransactionobserver
public protocol SKPaymentTransactionObserver: NSObjectProtocol {
    /// https://developer.apple.com/documentation/storekit/skpaymenttransactionobserver/paymentqueue(_:updatedtransactions:)
    func paymentQueue(_ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction])
    // Optional in Objective-C, implemented by the adapter as plain methods:
    // https://developer.apple.com/documentation/storekit/skpaymenttransactionobserver/paymentqueuerestorecompletedtransactionsfinished(_:)
    // https://developer.apple.com/documentation/storekit/skpaymenttransactionobserver/paymentqueue(_:restorecompletedtransactionsfailedwitherror:)
}

/// https://developer.apple.com/documentation/storekit/skpayment
open class SKPayment: NSObject {
    /// https://developer.apple.com/documentation/storekit/skpayment/productidentifier
    open var productIdentifier: String { "" }
}

/// https://developer.apple.com/documentation/storekit/skmutablepayment
open class SKMutablePayment: SKPayment {
    /// https://developer.apple.com/documentation/storekit/skpayment/init(product:)
    public init(product: SKProduct) {}
    /// https://developer.apple.com/documentation/storekit/skmutablepayment/paymentdiscount
    open var paymentDiscount: SKPaymentDiscount?
}

/// https://developer.apple.com/documentation/storekit/skpaymentdiscount
open class SKPaymentDiscount: NSObject {
    /// https://developer.apple.com/documentation/storekit/skpaymentdiscount/init(identifier:keyidentifier:nonce:signature:timestamp:)
    public init(identifier: String, keyIdentifier: String, nonce: UUID, signature: String, timestamp: NSNumber) {}
}

/// https://developer.apple.com/documentation/storekit/skpaymenttransaction
open class SKPaymentTransaction: NSObject {
    /// https://developer.apple.com/documentation/storekit/skpaymenttransaction/payment
    open var payment: SKPayment { SKPayment() }
    /// https://developer.apple.com/documentation/storekit/skpaymenttransaction/transactionstate
    open var transactionState: SKPaymentTransactionState { .purchasing }
    /// https://developer.apple.com/documentation/storekit/skpaymenttransaction/error
    open var error: (any Error)? { nil }
    /// https://developer.apple.com/documentation/storekit/skpaymenttransaction/transactionidentifier
    open var transactionIdentifier: String? { nil }
    /// https://developer.apple.com/documentation/storekit/skpaymenttransaction/original
    open var original: SKPaymentTransaction? { nil }
}

/// https://developer.apple.com/documentation/storekit/skpaymenttransactionstate
public enum SKPaymentTransactionState: Int, Sendable {
    /// https://developer.apple.com/documentation/storekit/skpaymenttransactionstate/purchasing
    case purchasing = 0
    /// https://developer.apple.com/documentation/storekit/skpaymenttransactionstate/purchased
    case purchased = 1
    /// https://developer.apple.com/documentation/storekit/skpaymenttransactionstate/failed
    case failed = 2
    /// https://developer.apple.com/documentation/storekit/skpaymenttransactionstate/restored
    case restored = 3
    /// https://developer.apple.com/documentation/storekit/skpaymenttransactionstate/deferred
    case deferred = 4
}

/// https://developer.apple.com/documentation/storekit/skerror
public struct SKError: Error, Sendable {
    /// https://developer.apple.com/documentation/storekit/skerror/code
    public let code: SKError.Code

    /// https://developer.apple.com/documentation/storekit/skerror/code
    public enum Code: Int, Sendable {
        /// https://developer.apple.com/documentation/storekit/skerror/code/unknown
        case unknown = 0
        /// https://developer.apple.com/documentation/storekit/skerror/code/clientinvalid
        case clientInvalid = 1
        /// https://developer.apple.com/documentation/storekit/skerror/code/paymentcancelled
        case paymentCancelled = 2
        /// https://developer.apple.com/documentation/storekit/skerror/code/paymentinvalid
        case paymentInvalid = 3
        /// https://developer.apple.com/documentation/storekit/skerror/code/paymentnotallowed
        case paymentNotAllowed = 4
    }
}
