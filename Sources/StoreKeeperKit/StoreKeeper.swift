public import Foundation
import StoreKeeperAPI

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// The client an app drops in: it sends the store's evidence to the StoreKeeper server, finishes transactions
/// only once the server stored them, caches the answer, and decides access by the server's clock plus elapsed
/// time — granting at once from a valid cache, and saying ``CustomerInfo/Verification/cannotVerify`` rather than
/// locking a paying customer out.
///
/// ```swift
/// let storeKeeper = StoreKeeper(
///     configuration: .init(serverURL: url, apiKey: "pk_…"), store: StoreKit2Store())
/// try await storeKeeper.start()
/// if try await storeKeeper.customerInfo().entitlements["premium"]?.isActive == true { … }
/// ```
public actor StoreKeeper {
    /// How ``customerInfo(fetchPolicy:)`` may answer.
    public enum FetchPolicy: Sendable, Hashable {
        /// A fresh cached answer if there is one (see ``AccessPolicy/isFresh(_:at:)``), otherwise the server.
        case cachedOrFetched
        /// Always the server (offline: the cached answer within its grace).
        case fetchCurrent
    }

    /// Who buys and who finishes transactions.
    public enum Mode: Sendable, Hashable {
        /// The SDK buys (``StoreKeeper/purchase(productID:promotionalOfferID:)``) and finishes every transaction
        /// once the server stored it.
        case full
        /// The app keeps its own StoreKit purchase code: the SDK never starts a purchase and never finishes a
        /// transaction. It sends what the store delivers (launch, `Transaction.updates`, the payment queue) and
        /// what the app hands it (``StoreKeeper/recordPurchase(_:)``), and publishes the access; the app finishes.
        case observer
    }

    /// The configuration.
    public let configuration: Configuration
    /// Who buys and who finishes transactions.
    public nonisolated let mode: Mode
    let store: any PurchaseStore
    let persistence: any StoreKeeperPersistence
    let clock: any DeviceClock
    let server: ServerConnection

    var state: PersistedState?
    var listener: Task<Void, Never>?
    /// Sends in flight by transaction id: a second caller (the launch pass, the updates stream, a purchase) waits
    /// for the same send instead of sending again.
    var sending: [String: Task<CustomerInfo, any Error>] = [:]
    var subscribers: [UUID: AsyncStream<CustomerInfo>.Continuation] = [:]
    var lastPublished: CustomerInfo?
    /// The request for the server's offerings in flight, if one is.
    var fetchingOfferings: Task<OfferingsResponse, any Error>?

    /// Makes a client; nothing happens until ``start()``.
    /// - Parameters:
    ///   - configuration: The server and the access policy.
    ///   - store: The App Store adapter.
    ///   - persistence: Where the app user id and the last answer survive relaunches.
    ///   - mode: ``Mode/full`` (the default) or ``Mode/observer`` when the app buys and finishes itself.
    ///   - clock: The device's clocks (tests inject one).
    ///   - session: The URL session requests go through.
    public init(
        configuration: Configuration, store: any PurchaseStore, persistence: any StoreKeeperPersistence,
        mode: Mode = .full, clock: any DeviceClock = SystemDeviceClock(), session: URLSession = .shared
    ) {
        self.configuration = configuration
        self.mode = mode
        self.store = store
        self.persistence = persistence
        self.clock = clock
        var server = ServerConnection(
            baseURL: configuration.serverURL, apiKey: configuration.apiKey,
            http: HTTPExchange(
                session: session, timeout: configuration.requestTimeout, headers: configuration.client.headers))
        server.verifier = AnswerVerifier(publicKeys: configuration.answerSigningKeys)
        self.server = server
    }

    #if canImport(Darwin)
        /// Makes a client that keeps its state in the app's container (``FilePersistence/appContainer``).
        public init(configuration: Configuration, store: any PurchaseStore, mode: Mode = .full) {
            self.init(
                configuration: configuration, store: store, persistence: FilePersistence.appContainer, mode: mode)
        }
    #endif

    /// The app user id requests are made for: the logged-in id, or an anonymous one made at first launch.
    public var appUserID: String? { state?.appUserID }

    /// Starts at launch: loads the saved state, listens for transactions the store delivers from now on, sends
    /// every unfinished transaction (finishing each once the server stored it — in ``Mode/observer`` the app
    /// finishes; one that fails stays for the next launch), then publishes the customer's access — from the cache when it is still valid, otherwise from the
    /// server.
    /// - Returns: The access at launch (also published on ``customerInfoUpdates``).
    /// - Throws: ``StoreKeeperError`` when the saved state cannot be read or written, or the server refused (a
    ///   wrong key); being offline is not an error (see ``customerInfo(fetchPolicy:)``).
    @discardableResult
    public func start() async throws -> CustomerInfo {
        if state == nil { state = try await loadState() }
        if listener == nil {
            let updates = store.transactionUpdates()
            listener = Task { [weak self] in
                for await transaction in updates {
                    guard let self else { return }
                    _ = try? await self.send(transaction)
                }
            }
        }
        for transaction in (try? await store.unfinishedTransactions()) ?? [] {
            _ = try? await send(transaction)
        }
        return try await customerInfo()
    }

    /// The customer's access now.
    /// - Parameter fetchPolicy: Whether a fresh cached answer may be used.
    /// - Returns: The access, with how it was reached; when the server cannot be reached, the cached answer within
    ///   its grace, or ``CustomerInfo/Verification/cannotVerify``; when its answer fails the signature check,
    ///   ``CustomerInfo/Verification/failed`` with what the last verified answer grants.
    /// - Throws: ``StoreKeeperError`` `server` when the server refused (a wrong key, say).
    public func customerInfo(fetchPolicy: FetchPolicy = .cachedOrFetched) async throws -> CustomerInfo {
        let current = try await started()
        let policy = configuration.accessPolicy
        let now = current.answer?.anchor.trustedNow(clock)
        if fetchPolicy == .cachedOrFetched, let answer = current.answer, policy.isFresh(answer, at: now) {
            return publish(policy.decide(answer.response, at: now, verification: .cached))
        }
        do {
            return try await refresh()
        } catch let error as StoreKeeperError where error.code == .offline {
            return publish(policy.offline(current.answer, appUserID: current.appUserID, at: now))
        } catch let error as StoreKeeperError where error.code == .answerNotVerified {
            return publish(policy.failed(current.answer, appUserID: current.appUserID, at: now))
        }
    }

    /// Asks the store to buy `productID`; once bought, sends the transaction to the server and finishes it only
    /// after the server stored it.
    /// - Returns: ``PurchaseResult/purchased(_:)`` with the access after it, or cancelled, or pending.
    /// - Throws: ``StoreKeeperError``: the store's (`productNotFound`, `purchaseNotAllowed`, `alreadyOwned`), or
    ///   the server's — then the transaction stays unfinished and is sent again at the next launch; `observerMode`
    ///   in ``Mode/observer``, where the app buys.
    /// - Parameters:
    ///   - productID: The product to buy.
    ///   - promotionalOfferID: A promotional offer to apply, signed through ``Configuration/offerSigner`` (your
    ///     backend decides who gets it).
    public func purchase(productID: String, promotionalOfferID: String? = nil) async throws -> PurchaseResult {
        guard mode == .full else {
            throw StoreKeeperError(
                .observerMode,
                "in observer mode the app buys \(productID) itself; hand the transaction to recordPurchase")
        }
        let current = try await started()
        var offer: PromotionalOffer?
        if let offerID = promotionalOfferID {
            guard let signer = configuration.offerSigner else {
                throw StoreKeeperError(.offerNotSigned, "no offerSigner is configured for offer \(offerID)")
            }
            do {
                offer = PromotionalOffer(
                    offerID: offerID, signature: try await signer(productID, offerID, current.appUserID))
            } catch {
                throw StoreKeeperError(.offerNotSigned, "offer \(offerID) of \(productID) was not signed: \(error)")
            }
        }
        switch try await store.purchase(productID, offer: offer) {
        case .purchased(let transaction): return .purchased(try await send(transaction))
        case .userCancelled: return .userCancelled
        case .pending: return .pending
        }
    }

    /// Restores: replays the customer's past purchases from the store (may ask for the Apple ID password) and
    /// sends them. Use it behind a "Restore Purchases" button, not at launch.
    /// - Returns: The access after it.
    public func restorePurchases() async throws -> CustomerInfo {
        let current = try await started()
        let transactions = try await store.restore()
        var latest: CustomerInfo?
        for transaction in transactions { latest = try await send(transaction) }
        if let evidence = try await store.evidence(refresh: false) {
            return try await remember(try await server.post(evidence, for: current.appUserID))
        }
        if let latest { return latest }
        return try await refresh()
    }

    /// Refreshes: fetches new evidence from the store (a new receipt; may ask for the Apple ID password) and sends
    /// it. For a customer who says a purchase is missing.
    /// - Returns: The access after it.
    public func refreshEvidence() async throws -> CustomerInfo {
        let current = try await started()
        guard let evidence = try await store.evidence(refresh: true) else { return try await refresh() }
        return try await remember(try await server.post(evidence, for: current.appUserID))
    }

    /// Logs in: requests are made for `appUserID` from now on. An anonymous customer's purchases move to the
    /// account (the anonymous id becomes an alias of it).
    /// - Returns: The account's access.
    public func logIn(_ appUserID: String) async throws -> CustomerInfo {
        let current = try await started()
        guard appUserID != current.appUserID else { return try await customerInfo(fetchPolicy: .fetchCurrent) }
        let response =
            current.isAnonymous && current.answer?.response.subscriber.firstSeen != nil
            ? try await server.alias(current.appUserID, into: appUserID)
            : try await server.subscriber(appUserID)
        state = PersistedState(appUserID: appUserID, isAnonymous: false, answer: nil, offerings: current.offerings)
        return try await remember(response)
    }

    /// Logs out: a new anonymous customer, with nothing cached.
    public func logOut() async throws {
        let current = try await started()
        state = .anonymous()
        state?.offerings = current.offerings
        try await saveState()
    }

    /// Products from the store, with this customer's introductory-offer eligibility from the server (unknown
    /// when the server cannot be reached, so the intro price is not promised). The store and the server are asked
    /// at once, so a paywall waits for the slower of the two, not for both in turn.
    public func products(_ ids: [String]) async throws -> [StoreProduct] {
        let current = try await started()
        let server = server
        let appUserID = current.appUserID
        async let asked = try? server.eligibility(appUserID, productIDs: ids)
        var products = try await store.products(ids)
        let eligibility = await asked ?? [:]
        for index in products.indices {
            products[index].isEligibleForIntroOffer = eligibility[products[index].id].flatMap {
                $0 == "eligible" ? true : $0 == "ineligible" ? false : nil
            }
        }
        return products
    }

    /// Every new access answer, starting with the current one if there is one. Each access makes its own
    /// stream; it ends when the task iterating it is cancelled.
    public nonisolated var customerInfoUpdates: AsyncStream<CustomerInfo> {
        AsyncStream(bufferingPolicy: .bufferingNewest(8)) { continuation in
            let id = UUID()
            continuation.onTermination = { [weak self] _ in Task { await self?.unsubscribe(id) } }
            Task { await self.subscribe(id, continuation) }
        }
    }

    // MARK: - The rules' plumbing

    /// Sends one transaction's evidence; finishes it once the server stored it.
    @discardableResult
    func send(_ transaction: StoreTransaction) async throws -> CustomerInfo {
        if let inFlight = sending[transaction.id] { return try await inFlight.value }
        let task = Task { try await deliver(transaction) }
        sending[transaction.id] = task
        defer { sending[transaction.id] = nil }
        return try await task.value
    }

    /// Posts the evidence; only once the server stored it, finishes the transaction (not in ``Mode/observer``:
    /// the app does), then publishes the access (so whoever sees the access sees the transaction finished).
    func deliver(_ transaction: StoreTransaction) async throws -> CustomerInfo {
        let current = try await started()
        let response = try await server.post(transaction.evidence, for: current.appUserID)
        if mode == .full { try await store.finish(transaction) }
        return try await remember(response)
    }

    /// Asks the server: posts the store's evidence, refreshing it only when the device has none (a refresh may
    /// ask for a password, so never when there is evidence); reads the subscriber when there is still none.
    func refresh() async throws -> CustomerInfo {
        let current = try await started()
        var evidence = try? await store.evidence(refresh: false)
        if evidence == nil { evidence = try? await store.evidence(refresh: true) }
        let response =
            if let evidence {
                try await server.post(evidence, for: current.appUserID)
            } else {
                try await server.subscriber(current.appUserID)
            }
        return try await remember(response)
    }

    /// Caches a server answer with the clock anchor it arrived with, and publishes the access it gives.
    func remember(_ response: SubscriberResponse) async throws -> CustomerInfo {
        let anchor = ClockAnchor(serverDate: response.requestDate, clock: clock)
        let current = try await started()
        // An alias answer names the canonical id; keep asking for the id the app uses.
        state = PersistedState(
            appUserID: current.appUserID, isAnonymous: current.isAnonymous,
            answer: CachedAnswer(response: response, anchor: anchor), offerings: current.offerings)
        try await saveState()
        return publish(
            configuration.accessPolicy.decide(response, at: anchor.trustedNow(clock), verification: .server))
    }

    func started() async throws -> PersistedState {
        guard let state else {
            throw StoreKeeperError(.notStarted, "call start() before anything else")
        }
        return state
    }

    func loadState() async throws -> PersistedState {
        if let data = try await persistence.load(), let saved = try? PersistedState.decoded(data) { return saved }
        let fresh = PersistedState.anonymous()
        try await persistence.save(try fresh.encoded())
        return fresh
    }

    func saveState() async throws {
        guard let state else { return }
        try await persistence.save(try state.encoded())
    }

    @discardableResult
    func publish(_ info: CustomerInfo) -> CustomerInfo {
        if info != lastPublished {
            lastPublished = info
            for continuation in subscribers.values { continuation.yield(info) }
        }
        return info
    }

    func subscribe(_ id: UUID, _ continuation: AsyncStream<CustomerInfo>.Continuation) {
        subscribers[id] = continuation
        if let lastPublished { continuation.yield(lastPublished) }
    }

    func unsubscribe(_ id: UUID) { subscribers[id] = nil }

    /// Stops listening for store transactions.
    public func stop() {
        listener?.cancel()
        listener = nil
        for continuation in subscribers.values { continuation.finish() }
        subscribers = [:]
    }
}
