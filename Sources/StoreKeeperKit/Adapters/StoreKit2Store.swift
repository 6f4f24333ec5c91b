#if canImport(StoreKit)
    public import Foundation
    public import StoreKit

    #if os(iOS) || os(visionOS)
        import UIKit
    #endif

    /// StoreKit 2 as a ``PurchaseStore``: it maps types and nothing else. Every rule (when to send, when to
    /// finish, what to grant) lives in ``StoreKeeper``; StoreKit's own on-device verification is not trusted —
    /// the server verifies every JWS.
    @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
    public actor StoreKit2Store: PurchaseStore {
        /// Transactions handed out and not finished yet, by id, so ``finish(_:)`` can finish the StoreKit value.
        var handedOut: [String: Transaction] = [:]

        /// The App Store through StoreKit 2.
        public init() {}

        /// `Product.products(for:)`.
        public func products(_ ids: [String]) async throws -> [StoreProduct] {
            try await Product.products(for: ids).map(Self.product)
        }

        /// `Product.purchase(options:)`, with `promotionalOffer(offerID:keyID:nonce:signature:timestamp:)`.
        public func purchase(_ productID: String, offer: PromotionalOffer?) async throws -> StorePurchaseOutcome {
            guard let product = try await Product.products(for: [productID]).first else {
                throw StoreKeeperError(.productNotFound, "the App Store sells no product \(productID)")
            }
            var options: Set<Product.PurchaseOption> = []
            if let offer, let nonce = UUID(uuidString: offer.signature.nonce),
                let signature = Data(base64Encoded: offer.signature.signature)
            {
                options.insert(
                    .promotionalOffer(
                        offerID: offer.offerID, keyID: offer.signature.keyID, nonce: nonce, signature: signature,
                        timestamp: Int(offer.signature.timestamp)))
            }
            let result: Product.PurchaseResult
            do {
                result = try await product.purchase(options: options)
            } catch Product.PurchaseError.purchaseNotAllowed {
                throw StoreKeeperError(.purchaseNotAllowed, "purchases are not allowed on this device")
            } catch {
                throw StoreKeeperError(.store, "StoreKit: \(error)")
            }
            switch result {
            case .success(let verification): return .purchased(keep(verification))
            case .userCancelled: return .userCancelled
            case .pending: return .pending
            @unknown default: return .pending
            }
        }

        /// `Transaction.unfinished`.
        public func unfinishedTransactions() async throws -> [StoreTransaction] {
            var list: [StoreTransaction] = []
            for await verification in Transaction.unfinished { list.append(keep(verification)) }
            return list
        }

        /// `Transaction.updates`, listened to from launch.
        public nonisolated func transactionUpdates() -> AsyncStream<StoreTransaction> {
            AsyncStream { continuation in
                let task = Task {
                    for await verification in Transaction.updates {
                        continuation.yield(await self.keep(verification))
                    }
                    continuation.finish()
                }
                continuation.onTermination = { _ in task.cancel() }
            }
        }

        /// `Transaction.finish()`.
        public func finish(_ transaction: StoreTransaction) async throws {
            await handedOut.removeValue(forKey: transaction.id)?.finish()
        }

        /// The app receipt when the device has one (`refresh`: `AppStore.sync()` first, which may ask for a
        /// password); otherwise the newest signed current entitlement.
        public func evidence(refresh: Bool) async throws -> StoreEvidence? {
            if refresh { try await AppStore.sync() }
            if let url = Bundle.main.appStoreReceiptURL, let data = try? Data(contentsOf: url) {
                return .receipt(data.base64EncodedString())
            }
            var newest: VerificationResult<Transaction>?
            for await verification in Transaction.currentEntitlements { newest = verification }
            return newest.map { .signedTransaction($0.jwsRepresentation) }
        }

        /// `AppStore.sync()`, then `Transaction.currentEntitlements`.
        public func restore() async throws -> [StoreTransaction] {
            try await AppStore.sync()
            var list: [StoreTransaction] = []
            for await verification in Transaction.currentEntitlements { list.append(keep(verification)) }
            return list
        }

        /// The transaction the app's own purchase code received, for ``StoreKeeper/recordPurchase(_:)`` in
        /// ``StoreKeeper/Mode/observer`` (the app finishes StoreKit's value itself).
        public static func transaction(_ verification: VerificationResult<Transaction>) -> StoreTransaction {
            let transaction = verification.unsafePayloadValue
            return StoreTransaction(
                id: String(transaction.id), originalID: String(transaction.originalID),
                productID: transaction.productID, evidence: .signedTransaction(verification.jwsRepresentation))
        }

        /// `AppStore.showManageSubscriptions(in:)` in the app's foreground window scene (iOS and visionOS; elsewhere
        /// ``StoreKeeperError/Code/unsupported``: open ``CustomerInfo/managementURL``).
        public func showManageSubscriptions() async throws {
            #if os(iOS) || os(visionOS)
                try await Self.showManageSubscriptionsInForegroundScene()
            #else
                throw StoreKeeperError(
                    .unsupported, "StoreKit shows no management page on this platform; open CustomerInfo.managementURL")
            #endif
        }

        /// `Transaction.beginRefundRequest(for:in:)` in the app's foreground window scene (iOS and visionOS;
        /// elsewhere ``StoreKeeperError/Code/unsupported``).
        public func beginRefundRequest(for transactionID: String) async throws -> RefundRequestStatus {
            guard let id = UInt64(transactionID) else {
                throw StoreKeeperError(.store, "\(transactionID) is not a StoreKit transaction id")
            }
            #if os(iOS) || os(visionOS)
                return try await Self.refundRequestInForegroundScene(id)
            #else
                throw StoreKeeperError(.unsupported, "StoreKit takes refund requests on iOS and visionOS only")
            #endif
        }

        #if os(iOS) || os(visionOS)
            /// The app's foreground window scene, the one StoreKit's sheets are shown in.
            @MainActor static func foregroundScene() throws -> UIWindowScene {
                let scenes = UIApplication.shared.connectedScenes.compactMap { $0 as? UIWindowScene }
                guard let scene = scenes.first(where: { $0.activationState == .foregroundActive }) ?? scenes.first
                else { throw StoreKeeperError(.unsupported, "the app has no window scene to show the page in") }
                return scene
            }

            @MainActor static func showManageSubscriptionsInForegroundScene() async throws {
                do {
                    try await AppStore.showManageSubscriptions(in: try foregroundScene())
                } catch let error as StoreKeeperError {
                    throw error
                } catch {
                    throw StoreKeeperError(.store, "StoreKit: \(error)")
                }
            }

            @MainActor static func refundRequestInForegroundScene(_ id: UInt64) async throws -> RefundRequestStatus {
                let status: Transaction.RefundRequestStatus
                do {
                    status = try await Transaction.beginRefundRequest(for: id, in: try foregroundScene())
                } catch let error as StoreKeeperError {
                    throw error
                } catch {
                    throw StoreKeeperError(.store, "StoreKit: \(error)")
                }
                switch status {
                case .success: return .success
                case .userCancelled: return .userCancelled
                @unknown default: return .userCancelled
                }
            }
        #endif

        /// The transaction with its JWS; StoreKit's value kept for ``finish(_:)``.
        func keep(_ verification: VerificationResult<Transaction>) -> StoreTransaction {
            let transaction = verification.unsafePayloadValue
            handedOut[String(transaction.id)] = transaction
            return StoreTransaction(
                id: String(transaction.id), originalID: String(transaction.originalID),
                productID: transaction.productID,
                evidence: .signedTransaction(verification.jwsRepresentation))
        }

        static func product(_ product: Product) -> StoreProduct {
            let intro = product.subscription?.introductoryOffer.map {
                StoreProduct.IntroductoryOffer(
                    discountType: mode($0.paymentMode), displayPrice: $0.displayPrice, period: period($0.period),
                    periods: $0.periodCount)
            }
            return StoreProduct(
                id: product.id, displayPrice: product.displayPrice, price: product.price,
                currencyCode: product.priceFormatStyle.currencyCode,
                subscriptionPeriod: product.subscription.map { period($0.subscriptionPeriod) },
                introductoryOffer: intro)
        }

        static func mode(_ mode: Product.SubscriptionOffer.PaymentMode) -> String {
            switch mode {
            case .freeTrial: "FREE_TRIAL"
            case .payUpFront: "PAY_UP_FRONT"
            default: "PAY_AS_YOU_GO"
            }
        }

        static func period(_ period: Product.SubscriptionPeriod) -> String {
            let unit =
                switch period.unit {
                case .day: "D"
                case .week: "W"
                case .year: "Y"
                default: "M"
                }
            return "P\(period.value)\(unit)"
        }
    }
#endif
