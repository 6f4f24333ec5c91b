#if canImport(StoreKit)
    public import Foundation
    public import StoreKit

    /// StoreKit 1 as a ``PurchaseStore``: the payment queue observer (added when the store is made, so make it at
    /// launch), `SKProductsRequest`, `SKReceiptRefreshRequest` and `restoreCompletedTransactions`. It maps
    /// callbacks to values and nothing else; the evidence of every transaction is the app receipt, which the
    /// server verifies.
    @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
    public final class StoreKit1Store: NSObject, PurchaseStore, SKPaymentTransactionObserver, @unchecked Sendable {
        let queue: SKPaymentQueue
        let lock = NSLock()
        var purchases: [String: CheckedContinuation<StorePurchaseOutcome, any Error>] = [:]
        var restoring: CheckedContinuation<[StoreTransaction], any Error>?
        var restored: [StoreTransaction] = []
        var updates: [UUID: AsyncStream<StoreTransaction>.Continuation] = [:]
        var open: [String: SKPaymentTransaction] = [:]
        var requests: [ObjectIdentifier: StoreKit1Request] = [:]

        /// `body` under the lock (`NSLock.withLock` needs iOS 16).
        func locked<T>(_ body: () throws -> T) rethrows -> T {
            lock.lock()
            defer { lock.unlock() }
            return try body()
        }

        /// Observes `queue` from now on.
        public init(queue: SKPaymentQueue = .default()) {
            self.queue = queue
            super.init()
            queue.add(self)
        }

        /// `SKProductsRequest`.
        public func products(_ ids: [String]) async throws -> [StoreProduct] {
            try await skProducts(ids).map(Self.product)
        }

        /// `SKPaymentQueue.add(_:)` (with an `SKPaymentDiscount` for an offer), answered by the observer.
        public func purchase(_ productID: String, offer: PromotionalOffer?) async throws -> StorePurchaseOutcome {
            guard SKPaymentQueue.canMakePayments() else {
                throw StoreKeeperError(.purchaseNotAllowed, "purchases are not allowed on this device")
            }
            guard let product = try await skProducts([productID]).first else {
                throw StoreKeeperError(.productNotFound, "the App Store sells no product \(productID)")
            }
            return try await withCheckedThrowingContinuation { continuation in
                locked { purchases[productID] = continuation }
                let payment = SKMutablePayment(product: product)
                if let offer, let nonce = UUID(uuidString: offer.signature.nonce) {
                    payment.paymentDiscount = SKPaymentDiscount(
                        identifier: offer.offerID, keyIdentifier: offer.signature.keyID, nonce: nonce,
                        signature: offer.signature.signature, timestamp: NSNumber(value: offer.signature.timestamp))
                }
                queue.add(payment)
            }
        }

        /// The queue's purchased and restored transactions.
        public func unfinishedTransactions() async throws -> [StoreTransaction] {
            let receipt = try? receiptEvidence()
            return queue.transactions.compactMap { remember($0, receipt) }
        }

        /// Transactions the observer sees that no purchase call is waiting for.
        public func transactionUpdates() -> AsyncStream<StoreTransaction> {
            AsyncStream { continuation in
                let id = UUID()
                locked { updates[id] = continuation }
                continuation.onTermination = { [weak self] _ in self?.locked { self?.updates[id] = nil } }
            }
        }

        /// `SKPaymentQueue.finishTransaction(_:)`.
        public func finish(_ transaction: StoreTransaction) async throws {
            if let open = locked({ open.removeValue(forKey: transaction.id) }) { queue.finishTransaction(open) }
        }

        /// The app receipt; `refresh` runs `SKReceiptRefreshRequest` first (may ask for a password).
        public func evidence(refresh: Bool) async throws -> StoreEvidence? {
            if refresh { _ = try await run(StoreKit1Request(SKReceiptRefreshRequest())) }
            return try? receiptEvidence()
        }

        /// `restoreCompletedTransactions()`: the restored transactions.
        public func restore() async throws -> [StoreTransaction] {
            try await withCheckedThrowingContinuation { continuation in
                locked {
                    restored = []
                    restoring = continuation
                }
                queue.restoreCompletedTransactions()
            }
        }

        // MARK: - SKPaymentTransactionObserver

        /// Routes each transaction to the purchase waiting for it, a restore, or the updates stream.
        public func paymentQueue(_ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction]) {
            let receipt = try? receiptEvidence()
            for transaction in transactions {
                let productID = transaction.payment.productIdentifier
                switch transaction.transactionState {
                case .purchased, .restored:
                    guard let value = remember(transaction, receipt) else { continue }
                    locked {
                        if let waiting = purchases.removeValue(forKey: productID) {
                            waiting.resume(returning: .purchased(value))
                        } else if restoring != nil, transaction.transactionState == .restored {
                            restored.append(value)
                        } else {
                            for continuation in updates.values { continuation.yield(value) }
                        }
                    }
                case .failed:
                    queue.finishTransaction(transaction)
                    let cancelled = (transaction.error as? SKError)?.code == .paymentCancelled
                    let waiting = locked { purchases.removeValue(forKey: productID) }
                    if cancelled {
                        waiting?.resume(returning: .userCancelled)
                    } else {
                        waiting?.resume(
                            throwing: StoreKeeperError(
                                .store, "StoreKit: \(transaction.error?.localizedDescription ?? "failed")"))
                    }
                case .deferred:
                    locked { purchases.removeValue(forKey: productID) }?.resume(returning: .pending)
                default:
                    continue
                }
            }
        }

        /// Ends a restore.
        public func paymentQueueRestoreCompletedTransactionsFinished(_ queue: SKPaymentQueue) {
            locked {
                restoring?.resume(returning: restored)
                restoring = nil
            }
        }

        /// Ends a restore that failed.
        public func paymentQueue(
            _ queue: SKPaymentQueue, restoreCompletedTransactionsFailedWithError error: any Error
        ) {
            locked {
                restoring?.resume(throwing: StoreKeeperError(.store, "restore: \(error.localizedDescription)"))
                restoring = nil
            }
        }

        // MARK: - Mapping

        func remember(_ transaction: SKPaymentTransaction, _ receipt: StoreEvidence?) -> StoreTransaction? {
            guard let id = transaction.transactionIdentifier, let receipt else { return nil }
            locked { open[id] = transaction }
            return StoreTransaction(
                id: id, originalID: transaction.original?.transactionIdentifier ?? id,
                productID: transaction.payment.productIdentifier, evidence: receipt)
        }

        func receiptEvidence() throws -> StoreEvidence {
            guard let url = Bundle.main.appStoreReceiptURL else {
                throw StoreKeeperError(.store, "this app has no receipt URL")
            }
            return .receipt(try Data(contentsOf: url).base64EncodedString())
        }

        func skProducts(_ ids: [String]) async throws -> [SKProduct] {
            try await run(StoreKit1Request(SKProductsRequest(productIdentifiers: Set(ids))))
        }

        func run(_ request: StoreKit1Request) async throws -> [SKProduct] {
            locked { requests[ObjectIdentifier(request)] = request }
            defer { locked { requests[ObjectIdentifier(request)] = nil } }
            return try await request.start()
        }

        static func product(_ product: SKProduct) -> StoreProduct {
            let formatter = NumberFormatter()
            formatter.numberStyle = .currency
            formatter.locale = product.priceLocale
            let intro = product.introductoryPrice.map {
                StoreProduct.IntroductoryOffer(
                    discountType: $0.paymentMode == .freeTrial
                        ? "FREE_TRIAL" : $0.paymentMode == .payUpFront ? "PAY_UP_FRONT" : "PAY_AS_YOU_GO",
                    displayPrice: formatter.string(from: $0.price) ?? "\($0.price)",
                    period: period($0.subscriptionPeriod), periods: $0.numberOfPeriods)
            }
            return StoreProduct(
                id: product.productIdentifier,
                displayPrice: formatter.string(from: product.price) ?? "\(product.price)",
                price: product.price.decimalValue, currencyCode: product.priceLocale.currencyCode ?? "USD",
                subscriptionPeriod: product.subscriptionPeriod.map(period), introductoryOffer: intro)
        }

        static func period(_ period: SKProductSubscriptionPeriod) -> String {
            let unit = ["D", "W", "M", "Y"][min(Int(period.unit.rawValue), 3)]
            return "P\(period.numberOfUnits)\(unit)"
        }
    }

    /// One `SKRequest` awaited: its delegate callbacks become a result.
    @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
    final class StoreKit1Request: NSObject, SKProductsRequestDelegate, @unchecked Sendable {
        let request: SKRequest
        var continuation: CheckedContinuation<[SKProduct], any Error>?

        init(_ request: SKRequest) {
            self.request = request
            super.init()
            request.delegate = self
        }

        func start() async throws -> [SKProduct] {
            try await withCheckedThrowingContinuation { continuation in
                self.continuation = continuation
                request.start()
            }
        }

        func productsRequest(_ request: SKProductsRequest, didReceive response: SKProductsResponse) {
            continuation?.resume(returning: response.products)
            continuation = nil
        }

        func requestDidFinish(_ request: SKRequest) {
            continuation?.resume(returning: [])
            continuation = nil
        }

        func request(_ request: SKRequest, didFailWithError error: any Error) {
            continuation?.resume(throwing: StoreKeeperError(.store, "StoreKit: \(error.localizedDescription)"))
            continuation = nil
        }
    }
#endif
