public import Foundation
import StoreKeeperAPI

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// A ``PurchaseStore`` backed by `storekeeper simulator` (or `serve`'s in-process one): a device of one customer
/// of one app, for Linux, tests and demos. Purchases go through the simulator's control API; the evidence is the
/// simulator's signed transactions and receipts, which a StoreKeeper server configured for the simulator accepts.
public actor SimulatorStore: PurchaseStore {
    /// What the customer does when the purchase sheet appears.
    public enum SheetResponse: Sendable, Hashable {
        /// Buys.
        case buy
        /// Closes the sheet.
        case cancel
        /// Asks a parent (Ask to Buy): pending; ``SimulatorStore/approvePending()`` buys.
        case askToBuy
    }

    /// The simulator's base URL.
    public let simulatorURL: URL
    /// The app.
    public let bundleID: String
    /// The customer (the Apple Account) this device is signed in with.
    public let customerID: String
    /// How often ``transactionUpdates()`` looks for new transactions, in seconds. Default 1.
    public let updateInterval: TimeInterval

    let http: HTTPExchange
    var nextResponse: SheetResponse = .buy
    var pending: [(String, PromotionalOffer?)] = []
    /// Transactions ``purchase(_:)`` returned: like StoreKit 2, the updates stream does not repeat them.
    var handedOut: Set<String> = []
    /// Products with a ``purchase(_:)`` under way: their new transaction is the purchase's, not an update.
    var purchasing: Set<String> = []
    var nextManagement: ManagementResponse = .keep
    var nextRefund: RefundResponse = .submit(.approve(after: 0))
    /// What the customer did on the management page, each time it was shown.
    public private(set) var managementVisits: [ManagementResponse] = []

    /// A device of `customerID` for `bundleID` at the simulator at `simulatorURL`.
    public init(
        simulatorURL: URL, bundleID: String, customerID: String, updateInterval: TimeInterval = 1,
        session: URLSession = .shared
    ) {
        self.simulatorURL = simulatorURL
        self.bundleID = bundleID
        self.customerID = customerID
        self.updateInterval = updateInterval
        self.http = HTTPExchange(session: session, timeout: 20)
    }

    /// What the customer does at the next purchase sheet (then back to ``SheetResponse/buy``).
    public func respondToNextPurchase(_ response: SheetResponse) { nextResponse = response }

    /// What the customer does on the subscription management page.
    public enum ManagementResponse: Sendable, Hashable {
        /// Closes it, changing nothing.
        case keep
        /// Turns off auto-renewal of their latest subscription (it runs to its end).
        case cancel
        /// Switches their latest subscription to another product of its group.
        case changePlan(to: String)
    }

    /// What Apple decides about a refund request.
    public enum RefundDecision: Sendable, Hashable {
        /// Refunds after `seconds` (real time): the simulator's refund, whose notification reaches the server.
        case approve(after: TimeInterval)
        /// Refuses: nothing changes.
        case decline
    }

    /// What the customer does at the refund request sheet.
    public enum RefundResponse: Sendable, Hashable {
        /// Submits the request, which Apple decides as given.
        case submit(RefundDecision)
        /// Closes the sheet.
        case cancel
    }

    /// What the customer does at the next management page (then back to ``ManagementResponse/keep``).
    public func respondToNextManagement(_ response: ManagementResponse) { nextManagement = response }

    /// What the customer does at the next refund sheet (then back to submitting a request Apple approves at once).
    public func respondToNextRefundRequest(_ response: RefundResponse) { nextRefund = response }

    /// The management page: the customer acts as ``respondToNextManagement(_:)`` said on their latest subscription.
    public func showManageSubscriptions() async throws {
        let response = nextManagement
        nextManagement = .keep
        managementVisits.append(response)
        guard response != .keep else { return }
        guard let latest = try await deviceTransactions().last?.transaction else {
            throw StoreKeeperError(.store, "the customer has no subscription to manage")
        }
        let original = Self.segment(latest.originalID)
        switch response {
        case .keep: return
        case .cancel: _ = try await post("subscriptions/\(original)/auto-renew", ["enabled": false])
        case .changePlan(let productID):
            _ = try await post("subscriptions/\(original)/change-plan", ["productID": productID])
        }
    }

    /// The refund sheet: the customer acts as ``respondToNextRefundRequest(_:)`` said; an approved request becomes
    /// the simulator's refund (reason 1, like a customer's request) after its delay.
    public func beginRefundRequest(for transactionID: String) async throws -> RefundRequestStatus {
        let response = nextRefund
        nextRefund = .submit(.approve(after: 0))
        switch response {
        case .cancel: return .userCancelled
        case .submit(.decline): return .success
        case .submit(.approve(let delay)):
            let path = "transactions/\(Self.segment(transactionID))/refund"
            if delay <= 0 {
                _ = try await post(path, ["reason": 1])
            } else {
                Task {
                    try? await Task.sleep(nanoseconds: UInt64(delay * 1e9))
                    _ = try? await self.post(path, ["reason": 1])
                }
            }
            return .success
        }
    }

    /// A parent approves the purchases asked for: they are bought, and arrive through ``transactionUpdates()``.
    public func approvePending() async throws {
        let approved = pending
        pending = []
        for (productID, offer) in approved { _ = try await buy(productID, offer: offer) }
    }

    /// The products the simulator's app sells in the USA storefront, of these ids.
    public func products(_ ids: [String]) async throws -> [StoreProduct] {
        let answer = try await get("apps/\(Self.segment(bundleID))/products")
        let listed = answer["products"] as? [[String: Any]] ?? []
        return listed.compactMap { object -> StoreProduct? in
            guard let id = object["productId"] as? String, ids.contains(id) else { return nil }
            let currency = object["currency"] as? String ?? "USD"
            let intro = (object["introductoryOffer"] as? [String: Any]).map {
                StoreProduct.IntroductoryOffer(
                    discountType: $0["discountType"] as? String ?? "FREE_TRIAL",
                    displayPrice: Self.display(Self.milliunits($0["price"]), currency),
                    period: $0["period"] as? String ?? "P1W", periods: ($0["periods"] as? Int) ?? 1)
            }
            let price = Self.milliunits(object["price"])
            return StoreProduct(
                id: id, displayPrice: Self.display(price, currency), price: Decimal(price) / 1000,
                currencyCode: currency, subscriptionPeriod: object["period"] as? String, introductoryOffer: intro)
        }
    }

    /// Shows the purchase sheet; the customer answers as ``respondToNextPurchase(_:)`` said.
    public func purchase(_ productID: String, offer: PromotionalOffer?) async throws -> StorePurchaseOutcome {
        let response = nextResponse
        nextResponse = .buy
        switch response {
        case .cancel: return .userCancelled
        case .askToBuy:
            pending.append((productID, offer))
            return .pending
        case .buy:
            purchasing.insert(productID)
            defer { purchasing.remove(productID) }
            let transaction = try await buy(productID, offer: offer)
            handedOut.insert(transaction.id)
            return .purchased(transaction)
        }
    }

    /// The customer's transactions the app has not finished, oldest first.
    public func unfinishedTransactions() async throws -> [StoreTransaction] {
        try await deviceTransactions().filter { !$0.finished }.map(\.transaction)
    }

    /// New unfinished transactions as they appear (looked for every ``updateInterval``).
    public nonisolated func transactionUpdates() -> AsyncStream<StoreTransaction> {
        AsyncStream { continuation in
            let task = Task {
                var seen = Set((try? await self.deviceTransactions().map(\.transaction.id)) ?? [])
                while !Task.isCancelled {
                    try? await Task.sleep(nanoseconds: UInt64(self.updateInterval * 1e9))
                    let items = (try? await self.deviceTransactions()) ?? []
                    let (handedOut, purchasing) = await (self.handedOut, self.purchasing)
                    for item in items
                    where !item.finished && !handedOut.contains(item.transaction.id)
                        && !purchasing.contains(item.transaction.productID) && seen.insert(item.transaction.id).inserted
                    {
                        continuation.yield(item.transaction)
                    }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Marks the transaction finished on the simulated device.
    public func finish(_ transaction: StoreTransaction) async throws {
        _ = try await post("transactions/\(Self.segment(transaction.id))/finish", [:])
    }

    /// The device's app receipt: `nil` before the customer bought anything, unless `refresh` fetches one.
    public func evidence(refresh: Bool) async throws -> StoreEvidence? {
        if !refresh, try await deviceTransactions().isEmpty { return nil }
        let answer = try await get(
            "apps/\(Self.segment(bundleID))/receipt?customerID=\(Self.segment(customerID))")
        guard let receipt = answer["receipt"] as? String else {
            throw StoreKeeperError(.store, "the simulator answered no receipt")
        }
        return .receipt(receipt)
    }

    /// Every transaction of the customer, as a restore replays them.
    public func restore() async throws -> [StoreTransaction] {
        try await deviceTransactions().map(\.transaction)
    }

    // MARK: - The simulator's control API

    struct DeviceTransaction {
        var transaction: StoreTransaction
        var finished: Bool
    }

    /// Buys `productID`, with its introductory offer when it has one (the simulator, like StoreKit, applies it
    /// only to a customer who has not used one in the group).
    func buy(_ productID: String, offer: PromotionalOffer? = nil) async throws -> StoreTransaction {
        var body: [String: Any] = ["bundleID": bundleID, "productID": productID, "customerID": customerID]
        if let offer {
            body["offer"] = "promotional"
            body["offerID"] = offer.offerID
            if let jws = offer.signature.compactJWS {
                body["offerJWS"] = jws
            } else {
                body["offerSignature"] = [
                    "keyID": offer.signature.keyID, "nonce": offer.signature.nonce,
                    "timestamp": offer.signature.timestamp, "signature": offer.signature.signature,
                ]
            }
        } else if try await products([productID]).first?.introductoryOffer != nil {
            body["offer"] = "introductory"
        }
        let bought = try await post("purchases", body)
        guard let id = bought["transactionId"] as? String,
            let transaction = try await deviceTransactions().first(where: { $0.transaction.id == id })
        else { throw StoreKeeperError(.store, "the simulator's purchase of \(productID) named no transaction") }
        return transaction.transaction
    }

    func deviceTransactions() async throws -> [DeviceTransaction] {
        let answer = try await get(
            "apps/\(Self.segment(bundleID))/device-transactions?customerID=\(Self.segment(customerID))")
        return (answer["transactions"] as? [[String: Any]] ?? []).compactMap { object in
            guard let id = object["transactionId"] as? String,
                let original = object["originalTransactionId"] as? String,
                let product = object["productId"] as? String, let jws = object["signedTransaction"] as? String
            else { return nil }
            return DeviceTransaction(
                transaction: StoreTransaction(
                    id: id, originalID: original, productID: product, evidence: .signedTransaction(jws)),
                finished: object["finished"] as? Bool ?? false)
        }
    }

    func get(_ path: String) async throws -> [String: Any] { try await exchange("GET", path, body: nil) }

    func post(_ path: String, _ body: [String: Any]) async throws -> [String: Any] {
        try await exchange("POST", path, body: try JSONSerialization.data(withJSONObject: body))
    }

    /// One control API call; the simulator's error codes become the store errors StoreKit would give.
    func exchange(_ method: String, _ path: String, body: Data?) async throws -> [String: Any] {
        guard let url = URL(string: simulatorURL.absoluteString.trimmingSuffix("/") + "/simulator/v1/" + path) else {
            throw StoreKeeperError(.store, "cannot make a URL of \(simulatorURL) and \(path)")
        }
        let (status, data) = try await http.send(method, url, body: body)
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        guard (200..<300).contains(status) else {
            let error = object["error"] as? [String: Any]
            let code = error?["code"] as? String ?? object["code"] as? String ?? ""
            let reason = error?["message"] as? String ?? object["reason"] as? String ?? "status \(status)"
            switch code {
            case "already_subscribed": throw StoreKeeperError(.alreadyOwned, reason)
            case "not_found" where path == "purchases": throw StoreKeeperError(.productNotFound, reason)
            case "invalid_offer_signature", "offer_nonce_reused", "offer_signature_expired", "offer_signature_missing",
                "no_offer":
                throw StoreKeeperError(.offerNotSigned, reason)
            default: throw StoreKeeperError(.store, "\(method) \(path): \(reason)")
            }
        }
        return object
    }

    static func milliunits(_ value: Any?) -> Int64 { (value as? NSNumber)?.int64Value ?? 0 }

    /// `9990` USD → `$9.99`; JPY has no minor unit.
    static func display(_ milliunits: Int64, _ currency: String) -> String {
        if currency == "JPY" { return "¥\(milliunits / 1000)" }
        let cents = milliunits / 10
        return "$\(cents / 100).\(String(format: "%02d", Int(cents % 100)))"
    }

    /// One path segment or query value, encoded as the API's paths are.
    static func segment(_ value: String) -> String { APIPath.segment(value) }
}
