import AppStoreSigning
import Crypto
import Foundation

/// Apple's App Store, run locally: products, purchases, renewals on an accelerated clock, billing failures,
/// refunds, plan changes and price increases, with the notifications, signed transactions, receipts and
/// Server API answers Apple would produce.
///
/// The simulator is deterministic: with a seed and a ``ManualClock``, two runs produce the same ids, dates and
/// notifications (signatures aside). Time moves only through the clock; every verb first catches the
/// simulated world up to `clock.now()` (renewals, grace period ends, retry expiry), in time order.
///
/// ```swift
/// let clock = ManualClock()
/// let simulator = AppStoreSimulator(pki: try .generate(), clock: clock)
/// try await simulator.createApp(app)
/// let purchase = try await simulator.purchase(bundleID: "com.example", productID: "monthly", customerID: "alice")
/// clock.advance(by: 5 * 60)          // one sandbox month
/// let history = await simulator.notifications(for: "com.example")   // SUBSCRIBED, DID_RENEW
/// ```
public actor AppStoreSimulator {
    /// How the simulated store behaves.
    public struct Configuration: Sendable {
        /// Seed for ids and UUIDs. Default 1.
        public var seed: UInt64 = 1
        /// How fast subscription time runs. Default: Apple's sandbox, "1 month = 5 min".
        public var rate: SandboxRate = .fiveMinutes
        /// Renewals before auto-renew turns off in the sandbox (Apple's stops after 12); production has no cap.
        /// Default 12.
        public var maximumRenewals = 12
        /// `Sandbox` or `Production`: the environment written into evidence. Default `Sandbox`.
        public var environment = "Sandbox"

        /// The defaults.
        public init() {}
    }

    /// How the store behaves.
    nonisolated public let configuration: Configuration
    /// The signing chains.
    nonisolated public let pki: SimulatorPKI
    /// Where "now" comes from.
    nonisolated public let clock: any SimulatorClock
    /// The JWS header segment of everything the simulator signs (its signed-data chain), made once.
    nonisolated let signingHeader: String

    var apps: [String: SimulatedApp] = [:]
    var transactions: [String: SimulatedTransaction] = [:]
    var transactionOrder: [String] = []
    /// Transaction ids by customer (`bundle id` + newline + `customer id`), in the order they were recorded.
    var transactionIDsByCustomer: [String: [String]] = [:]
    var subscriptions = SubscriptionTable()
    var notificationLog: [SimulatedNotification] = []
    /// Where each notification sits in `notificationLog`, by UUID.
    var notificationIndex: [String: Int] = [:]
    /// Positions in `notificationLog` of the notifications with a delivery attempt still scheduled.
    var awaitingDelivery: Set<Int> = []
    var random: SeededRandom
    var counter: UInt64 = 0
    var introUsed: Set<String> = []
    var forcedVerifyReceiptStatus: Int?
    var deletedCustomers: Set<String> = []
    var consumptionInfo: [String: Data] = [:]
    /// Refund requests (CONSUMPTION_REQUEST) and what became of them, by transaction id.
    var consumptionRequests: [String: SimulatedConsumptionRequest] = [:]
    /// Transactions the app finished on the device (see ``deviceTransactions(bundleID:customerID:)``).
    var finishedOnDevice: Set<String> = []
    /// Promotional offer nonces spent, by bundle id + newline + nonce.
    var usedOfferNonces: Set<String> = []
    var generatedAPIKeys: [String: P256.Signing.PrivateKey] = [:]
    /// The App Store Server API requests answered (not part of the saved world).
    public internal(set) var serverAPIRequests = ServerAPIRequestLog()
    /// Apple's rate limits of the Server API and the requests counted against them (not part of the saved world).
    var rateLimits = ServerAPIRateLimits()
    /// Retention Messaging performance test results by request id, as Apple's JSON (not part of the saved world).
    var performanceTests: [String: Data] = [:]
    /// Completed mass renewal-date extensions, for their status endpoint.
    var massExtensions: [MassExtension] = []
    /// How many times the world was restored from disk.
    var restores = 0
    /// Moves on with every change to the world (see ``revision``); whoever saves the world compares it.
    var revision: UInt64 = 0

    /// Makes a simulator.
    /// - Parameters:
    ///   - configuration: Seed, rate, renewal cap, environment.
    ///   - pki: The signing chains.
    ///   - clock: Where "now" comes from.
    public init(configuration: Configuration = .init(), pki: SimulatorPKI, clock: any SimulatorClock) {
        self.configuration = configuration
        self.pki = pki
        self.clock = clock
        self.signingHeader = JWSSigner.encodedHeader(chain: pki.signedData.chainDER)
        self.random = SeededRandom(seed: configuration.seed)
    }

    // MARK: - Apps

    /// Registers (or replaces) an app with its catalog. Without an API public key, one is generated and its
    /// private key (the `.p8` App Store Connect would let you download once) is returned.
    /// - Parameter app: The app.
    /// - Returns: The generated API private key in PEM, when one was generated.
    /// - Throws: ``SimulatorError`` when a product is inconsistent.
    @discardableResult
    public func createApp(_ app: SimulatedApp) throws -> String? {
        var app = app
        var generatedKey: String?
        if app.apiPublicKeyPEM == nil {
            let key = P256.Signing.PrivateKey()
            app.apiPublicKeyPEM = key.publicKey.pemRepresentation
            generatedKey = key.pemRepresentation
            generatedAPIKeys[app.bundleID] = key
        }
        guard !app.bundleID.isEmpty, app.bundleID.utf8.count <= 255 else {
            throw SimulatorError(.invalidBundleId, "bundleID \"\(app.bundleID.prefix(40))\" must be 1–255 bytes")
        }
        for product in app.products where product.kind == .autoRenewable {
            guard product.subscriptionGroupID != nil, product.period != nil else {
                throw SimulatorError(
                    .invalidProduct, "auto-renewable \(product.productID) needs a subscriptionGroupID and a period")
            }
        }
        guard [0, 3, 16, 28].contains(app.gracePeriodDays) else {
            throw SimulatorError(
                .invalidGracePeriod, "gracePeriodDays \(app.gracePeriodDays) must be 0, 3, 16 or 28")
        }
        apps[app.bundleID] = app
        revision &+= 1
        return generatedKey
    }

    /// A fresh Server API token for an app whose key the simulator generated (a convenience for curl sessions:
    /// real clients sign their own).
    /// - Parameter bundleID: The app.
    /// - Returns: A bearer token valid for 30 minutes of wall-clock time (token lifetimes are real time).
    public func apiToken(bundleID: String) throws -> String {
        guard let app = apps[bundleID], let key = generatedAPIKeys[bundleID] else {
            throw SimulatorError(.noGeneratedKey, "the simulator holds no API key for \(bundleID)", kind: .notFound)
        }
        do { return try ServerAPIAuthenticator.token(for: app, key: key, issuedAt: Date()) } catch {
            throw SimulatorError(.signingFailed, "\(error)", kind: .failed)
        }
    }

    /// An app by bundle id.
    public func app(_ bundleID: String) -> SimulatedApp? { apps[bundleID] }

    /// Every registered app.
    public func allApps() -> [SimulatedApp] { apps.values.sorted { $0.bundleID < $1.bundleID } }

    // MARK: - Reading state

    /// A transaction by id.
    public func transaction(_ id: String) -> SimulatedTransaction? {
        advance()
        return transactions[id]
    }

    /// A subscription by original transaction id.
    public func subscription(_ originalTransactionID: String) -> SimulatedSubscription? {
        advance()
        return subscriptions[originalTransactionID]
    }

    /// Every notification for an app, oldest first.
    public func notifications(for bundleID: String) -> [SimulatedNotification] {
        advance()
        return notificationLog.filter { $0.bundleID == bundleID }
    }

    // MARK: - Ids

    func nextID(_ base: UInt64) -> String {
        counter += 1
        return String(base + configuration.seed % 1000 * 1_000_000_000 + counter)
    }

    func orderID() -> String {
        let alphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ0123456789")
        return "M" + String((0..<9).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &random)] })
    }

    // MARK: - Time

    /// Catches the simulated world up to `clock.now()`: renewals, billing failures, grace and retry ends, in
    /// time order; then forgets notification history past Apple's 180 days.
    ///
    /// Processing an event changes only its own subscription, so after each one only that subscription's next
    /// due date is queued again; every event is still taken in (time, original transaction id) order.
    public func advance() {
        let now = clock.now()
        while let event = subscriptions.popDue(by: now) {
            process(event.originalTransactionID, at: event.due)
            revision &+= 1
            subscriptions.schedule(event.originalTransactionID)
        }
        decideLapsedRefundRequests(now: now)
        trimHistory(now: now)
    }

    func process(_ originalID: String, at date: Date) {
        guard var subscription = subscriptions[originalID] else { return }
        switch subscription.status {
        case .active:
            renewOrExpire(&subscription, at: date)
        case .billingGracePeriod:
            if let grace = subscription.graceEndsAt, grace <= date, !subscription.graceExpiredNotified,
                (subscription.retryEndsAt ?? .distantFuture) > grace
            {
                subscription.status = .billingRetry
                subscription.graceExpiredNotified = true
                subscriptions[originalID] = subscription
                emit("GRACE_PERIOD_EXPIRED", nil, v1: nil, subscription: subscription, at: grace)
                return
            }
            expireAfterRetry(&subscription, at: subscription.retryEndsAt ?? date)
        case .billingRetry:
            expireAfterRetry(&subscription, at: subscription.retryEndsAt ?? date)
        case .expired, .revoked:
            return
        }
        subscriptions[originalID] = subscription
    }

    func expireAfterRetry(_ subscription: inout SimulatedSubscription, at date: Date) {
        subscription.status = .expired
        subscription.expirationIntent = 2
        subscription.autoRenewEnabled = false
        subscription.graceEndsAt = nil
        subscription.pendingPromotionalOfferID = nil
        subscription.retryEndsAt = nil
        subscriptions[subscription.originalTransactionID] = subscription
        emit("EXPIRED", "BILLING_RETRY", v1: nil, subscription: subscription, at: date)
    }

    func renewOrExpire(_ subscription: inout SimulatedSubscription, at date: Date) {
        let id = subscription.originalTransactionID
        if !subscription.autoRenewEnabled {
            subscription.status = .expired
            subscription.expirationIntent = subscription.expirationIntent ?? 1
            subscriptions[id] = subscription
            emit("EXPIRED", "VOLUNTARY", v1: nil, subscription: subscription, at: date)
            return
        }
        if subscription.priceIncreaseStatus == 0 {
            subscription.status = .expired
            subscription.expirationIntent = 3
            subscription.autoRenewEnabled = false
            subscriptions[id] = subscription
            emit("EXPIRED", "PRICE_INCREASE", v1: nil, subscription: subscription, at: date)
            return
        }
        if configuration.environment != "Production", subscription.renewalCount >= configuration.maximumRenewals {
            // The sandbox turns auto-renew off at the renewal after the cap; production renews for as long as the
            // customer pays.
            subscription.status = .expired
            subscription.autoRenewEnabled = false
            subscription.expirationIntent = 1
            subscriptions[id] = subscription
            emit("EXPIRED", "VOLUNTARY", v1: nil, subscription: subscription, at: date)
            return
        }
        if subscription.nextRenewalFails {
            subscription.nextRenewalFails = false
            let graceDays = apps[subscription.bundleID]?.gracePeriodDays ?? 0
            subscription.retryEndsAt = date.addingTimeInterval(configuration.rate.seconds(forDays: 60))
            subscription.expirationIntent = 2
            if graceDays > 0 {
                subscription.status = .billingGracePeriod
                subscription.graceEndsAt = date.addingTimeInterval(
                    configuration.rate.seconds(forDays: Double(graceDays)))
                subscription.graceExpiredNotified = false
                subscriptions[id] = subscription
                emit("DID_FAIL_TO_RENEW", "GRACE_PERIOD", v1: "DID_FAIL_TO_RENEW", subscription: subscription, at: date)
            } else {
                subscription.status = .billingRetry
                subscriptions[id] = subscription
                emit("DID_FAIL_TO_RENEW", nil, v1: "DID_FAIL_TO_RENEW", subscription: subscription, at: date)
            }
            return
        }
        let transaction = renewalTransaction(&subscription, startingAt: date)
        subscriptions[id] = subscription
        emit(
            "DID_RENEW", nil, v1: "DID_RENEW", subscription: subscription, transactionID: transaction.transactionID,
            at: date)
    }

    /// Records a new period for a subscription (renewal or recovery) and returns its transaction.
    func renewalTransaction(_ subscription: inout SimulatedSubscription, startingAt date: Date) -> SimulatedTransaction
    {
        let app = apps[subscription.bundleID]!
        let product = app.product(subscription.autoRenewProductID)!
        let previous = transactions[subscription.latestTransactionID]!
        var transaction = SimulatedTransaction(
            transactionID: nextID(2_000_000_000_000_000), originalTransactionID: subscription.originalTransactionID,
            webOrderLineItemID: nextID(2_000_000_100_000_000), orderID: previous.orderID,
            bundleID: subscription.bundleID,
            customerID: subscription.customerID, productID: product.productID, type: product.kind.rawValue,
            subscriptionGroupID: product.subscriptionGroupID, purchaseDate: date,
            originalPurchaseDate: previous.originalPurchaseDate, expiresDate: nil,
            price: subscription.pendingPrice ?? product.prices[previous.storefront] ?? product.prices.values.first ?? 0,
            currency: previous.currency, storefront: previous.storefront, ownership: subscription.ownership,
            isUpgraded: false, reason: "RENEWAL", appAccountToken: subscription.appAccountToken)
        transaction.previousOriginalTransactionID = subscription.previousOriginalTransactionID
        var length = configuration.rate.seconds(for: product.period ?? .month)
        if let commitmentLength = renewCommitment(
            &subscription, product: product, transaction: &transaction, at: date)
        {
            length = commitmentLength
        } else if let offerID = subscription.pendingPromotionalOfferID,
            let applied = try? Self.applyOffer(
                product.promotionalOffers[offerID], type: 2, identifier: offerID, what: "promotional offer",
                product: product.productID, to: &transaction, rate: configuration.rate)
        {
            length = applied
        } else if subscription.introPeriodsLeft > 0, let intro = product.introductoryOffer {
            subscription.introPeriodsLeft -= 1
            transaction.offerType = 1
            transaction.offerDiscountType = intro.discountType
            transaction.offerPeriod = intro.period.rawValue
            transaction.price = intro.price
            length = configuration.rate.seconds(for: intro.period)
        }
        transaction.expiresDate = date.addingTimeInterval(length)
        record(transaction)
        subscription.productID = product.productID
        subscription.latestTransactionID = transaction.transactionID
        subscription.periodEnd = transaction.expiresDate!
        subscription.renewalCount += 1
        subscription.status = .active
        subscription.graceEndsAt = nil
        subscription.retryEndsAt = nil
        subscription.expirationIntent = nil
        subscription.pendingPromotionalOfferID = nil
        if subscription.priceIncreaseStatus == 1 { subscription.priceIncreaseStatus = nil }
        return transaction
    }

    func record(_ transaction: SimulatedTransaction) {
        if transactions[transaction.transactionID] == nil {
            transactionOrder.append(transaction.transactionID)
            transactionIDsByCustomer[transaction.bundleID + "\n" + transaction.customerID, default: []].append(
                transaction.transactionID)
        }
        transactions[transaction.transactionID] = transaction
    }
}
