import Foundation
import StoreKeeperAPI
import StoreKeeperKit
import Testing

/// The SDK's core against a real `storekeeper serve` and its App Store simulator, as an app lives: launches,
/// purchases, renewals while closed, refunds, being offline, a moved device clock, logging in.
@Suite(.timeLimit(.minutes(3))) struct StoreKeeperTests {
    @Test("first launch without evidence: the server answers, nothing is granted, the customer is anonymous")
    func firstLaunch() async throws {
        try await KitServer.with { server in
            let kit = server.launch(server.store("ann"), InMemoryPersistence(), TestDeviceClock())
            var updates = kit.customerInfoUpdates.makeAsyncIterator()
            try await kit.start()
            let launched = try #require(await updates.next())
            #expect(launched.verification == .server)
            // Asked again at once, the cached answer stands in for the server.
            let info = try await kit.customerInfo()
            #expect(info.verification == .cached)
            #expect(info.activeEntitlements.isEmpty)
            #expect(info.appUserID.hasPrefix("$anonymous:"))
            #expect(await kit.appUserID == info.appUserID)
        }
    }

    @Test(
        "purchase → entitled and finished; a purchase the server could not take stays unfinished until the next launch sends it"
    )
    func purchase() async throws {
        try await KitServer.with { server in
            let store = server.store("bob")
            let persistence = InMemoryPersistence()
            let clock = TestDeviceClock()
            // The server is down at the first launch: the store charges, the transaction stays unfinished.
            let offline = server.launch(store, persistence, clock, server: KitServer.unreachable)
            try await offline.start()
            #expect(try await offline.customerInfo().verification == .cannotVerify)
            await #expect(throws: StoreKeeperError(.offline, "")) {
                try await offline.purchase(productID: "premium.monthly")
            }
            #expect(try await store.unfinishedTransactions().count == 1)
            await offline.stop()

            // The next launch sends it, and finishes it only now.
            let kit = server.launch(store, persistence, clock)
            let updates = kit.customerInfoUpdates
            try await kit.start()
            #expect(try await store.unfinishedTransactions().isEmpty)
            let info = try await kit.customerInfo()
            #expect(info.entitlements["pro"]?.isActive == true)
            #expect(info.entitlements["pro"]?.periodType == "trial")
            #expect(info.entitlements["pro"]?.willRenew == true)
            var iterator = updates.makeAsyncIterator()
            #expect(await iterator.next()?.entitlements["pro"]?.isActive == true)
            let stored = try await server.subscriber(info.appUserID)
            #expect(stored.subscriptions.count == 1)

            // Another plan in the same group is a typed error, and a cancelled sheet is not a purchase.
            await #expect(throws: StoreKeeperError(.alreadyOwned, "")) {
                try await kit.purchase(productID: "premium.annual")
            }
            await store.respondToNextPurchase(.cancel)
            #expect(try await kit.purchase(productID: "coins.100") == .userCancelled)
            await kit.stop()
        }
    }

    @Test("a renewal made while the app was closed is seen at the next launch, and its transaction finished")
    func renewalWhileClosed() async throws {
        try await KitServer.with { server in
            let store = server.store("cat")
            let persistence = InMemoryPersistence()
            let clock = TestDeviceClock()
            let first = server.launch(store, persistence, clock)
            try await first.start()
            guard case .purchased(let bought) = try await first.purchase(productID: "basic.monthly") else {
                Issue.record("not purchased")
                return
            }
            let firstExpiry = try #require(bought.entitlements["basic"]?.expiresAt)
            await first.stop()

            try await server.advance(3_600 * 1.05, device: clock)  // a sandbox month and a bit: one renewal
            #expect(try await store.unfinishedTransactions().count == 1)
            let next = server.launch(store, persistence, clock)
            try await next.start()
            let info = try await next.customerInfo()
            #expect(info.entitlements["basic"]?.isActive == true)
            #expect((info.entitlements["basic"]?.expiresAt ?? .distantPast) > firstExpiry)
            #expect(try await store.unfinishedTransactions().isEmpty)
            await next.stop()
        }
    }

    @Test("a refund at the App Store removes access at the next refresh")
    func refund() async throws {
        try await KitServer.with { server in
            let store = server.store("dan")
            let clock = TestDeviceClock()
            let kit = server.launch(store, InMemoryPersistence(), clock)
            try await kit.start()
            guard case .purchased(let info) = try await kit.purchase(productID: "basic.monthly") else {
                Issue.record("not purchased")
                return
            }
            let transaction = try #require(info.subscriber?.subscriptions.first?.latestTransactionID)
            try await server.advance(60, device: clock)  // Apple refunds later than the purchase, never at its instant
            try await server.refund(transaction)
            let after = try await kit.customerInfo(fetchPolicy: .fetchCurrent)
            #expect(after.verification == .server)
            #expect(after.activeEntitlements.isEmpty)
            await kit.stop()
        }
    }

    @Test("offline: a valid cache grants until expiry plus the grace; past it, cannot verify — never a silent lock-out")
    func offline() async throws {
        try await KitServer.with { server in
            let store = server.store("eve")
            let persistence = InMemoryPersistence()
            let clock = TestDeviceClock()
            let online = server.launch(store, persistence, clock)
            try await online.start()
            guard case .purchased(let bought) = try await online.purchase(productID: "basic.monthly") else {
                Issue.record("not purchased")
                return
            }
            await online.stop()
            let expiry = try #require(bought.entitlements["basic"]?.expiresAt)
            let now = try #require(bought.decidedAt)

            let offline = server.launch(store, persistence, clock, server: KitServer.unreachable)
            try await offline.start()
            let fresh = try await offline.customerInfo()
            #expect(fresh.verification == .cached && fresh.entitlements["basic"]?.isActive == true)
            clock.pass(expiry.timeIntervalSince(now) + 86_400)  // a day past expiry, within the 3-day grace
            let within = try await offline.customerInfo()
            #expect(within.verification == .offline && within.entitlements["basic"]?.isActive == true)
            clock.pass(3 * 86_400)
            let past = try await offline.customerInfo()
            #expect(past.verification == .cannotVerify && past.activeEntitlements.isEmpty)
            await offline.stop()
        }
    }

    @Test("moving the device clock a year forward or back changes no decision")
    func clockTamper() async throws {
        try await KitServer.with { server in
            let store = server.store("fay")
            let persistence = InMemoryPersistence()
            let clock = TestDeviceClock()
            let kit = server.launch(store, persistence, clock)
            try await kit.start()
            guard case .purchased(let bought) = try await kit.purchase(productID: "basic.monthly") else {
                Issue.record("not purchased")
                return
            }
            await kit.stop()
            for shift in [365.0 * 86_400, -2 * 365.0 * 86_400] {
                clock.setWallClock(by: shift)
                let offline = server.launch(store, persistence, clock, server: KitServer.unreachable)
                try await offline.start()
                let info = try await offline.customerInfo()
                #expect(info.verification == .cached)
                #expect(info.entitlements == bought.entitlements)
                #expect(info.decidedAt.map { abs($0.timeIntervalSince(bought.decidedAt!)) < 60 } == true)
                await offline.stop()
            }
        }
    }

    @Test("logging in merges an anonymous purchaser into the account")
    func logIn() async throws {
        try await KitServer.with { server in
            let kit = server.launch(server.store("gus"), InMemoryPersistence(), TestDeviceClock())
            try await kit.start()
            _ = try await kit.purchase(productID: "basic.monthly")
            let anonymous = try #require(await kit.appUserID)
            let info = try await kit.logIn("user-42")
            #expect(await kit.appUserID == "user-42")
            #expect(info.entitlements["basic"]?.isActive == true)
            let account = try await server.subscriber("user-42")
            #expect(account.appUserID == "user-42" && account.aliases.contains(anonymous))
            #expect(account.entitlements.map(\.identifier) == ["basic"])
            try await kit.logOut()
            #expect(await kit.appUserID != "user-42")
            await kit.stop()
        }
    }

    @Test(
        "products: the paywall offers the free trial only to an eligible customer; Ask to Buy is pending, then arrives")
    func productsAndAskToBuy() async throws {
        try await KitServer.with { server in
            let store = server.store("hal")
            let kit = server.launch(store, InMemoryPersistence(), TestDeviceClock())
            try await kit.start()
            let before = try await kit.products(["premium.monthly", "nonexistent"])
            #expect(before.map(\.id) == ["premium.monthly"])
            #expect(before.first?.priceText == "1 week free, then $9.99 / month")
            await store.respondToNextPurchase(.askToBuy)
            #expect(try await kit.purchase(productID: "premium.monthly") == .pending)
            let updates = kit.customerInfoUpdates
            try await store.approvePending()
            var granted = false
            for await info in updates where info.entitlements["pro"]?.isActive == true {
                granted = true
                break
            }
            #expect(granted)
            #expect(try await store.unfinishedTransactions().isEmpty)
            let after = try await kit.products(["premium.monthly"])
            #expect(after.first?.priceText == "$9.99 / month")
            await kit.stop()
        }
    }
}

/// Promotional offers: the app's backend signs (here, straight through the server's `/v1/offers/sign` with the demo
/// secret key), StoreKeeperKit passes the signature to the store, and the App Store applies the offer once.
@Suite(.timeLimit(.minutes(3))) struct PromotionalOfferPurchaseTests {
    @Test("a signed promotional offer is applied; without a signer, or with a spent signature, it is refused")
    func promotionalOffer() async throws {
        try await KitServer.with { server in
            let unsigned = server.launch(server.store("pat"), InMemoryPersistence(), TestDeviceClock())
            try await unsigned.start()
            await #expect(throws: StoreKeeperError(.offerNotSigned, "")) {
                try await unsigned.purchase(productID: "premium.monthly", promotionalOfferID: "winback50")
            }
            await unsigned.stop()

            let spent = SpentSignatures()
            let kit = StoreKeeper(
                configuration: .init(
                    serverURL: server.base, apiKey: KitServer.publicKey,
                    offerSigner: { product, offer, _ in try await spent.sign(server, product, offer) }),
                store: server.store("quinn"), persistence: InMemoryPersistence(), clock: TestDeviceClock())
            try await kit.start()
            guard
                case .purchased(let info) = try await kit.purchase(
                    productID: "premium.monthly", promotionalOfferID: "winback50")
            else {
                Issue.record("not purchased")
                return
            }
            #expect(info.entitlements["pro"]?.isActive == true)
            #expect(info.entitlements["pro"]?.periodType == "promotional")
            #expect(await spent.count == 1)

            // Apple's introductory offer eligibility JWS says what the server decides for the customer.
            let user = try #require(await kit.appUserID)
            let subscribed = try await spent.eligibilityClaims(server, appUserID: user, transactionID: nil)
            #expect(subscribed?["aud"] as? String == "introductory-offer-eligibility")
            #expect(subscribed?["productId"] as? String == "premium.monthly")
            // The engine's decision, whatever it is (a promotional offer does not spend the introductory one).
            let decided = try #require(info.subscriber?.introEligibility["premium.monthly"])
            #expect(subscribed?["allowIntroductoryOffer"] as? Bool == (decided == "eligible"))
            #expect(
                subscribed?["transactionId"] as? String == info.subscriber?.subscriptions.first?.latestTransactionID)
            // A customer whose free trial was spent in the group is not allowed another.
            let trialist = server.launch(server.store("sol"), InMemoryPersistence(), TestDeviceClock())
            try await trialist.start()
            guard case .purchased(let trial) = try await trialist.purchase(productID: "premium.monthly") else {
                Issue.record("not purchased")
                return
            }
            #expect(trial.entitlements["pro"]?.periodType == "trial")
            let spentTrial = try await spent.eligibilityClaims(
                server, appUserID: try #require(await trialist.appUserID), transactionID: nil)
            #expect(spentTrial?["allowIntroductoryOffer"] as? Bool == false)
            await trialist.stop()
            #expect(try await spent.eligibilityClaims(server, appUserID: "newcomer", transactionID: nil) == nil)
            let newcomer = try await spent.eligibilityClaims(server, appUserID: "newcomer", transactionID: "7000")
            #expect(
                newcomer?["allowIntroductoryOffer"] as? Bool == true && newcomer?["transactionId"] as? String == "7000")
            await kit.stop()

            // The same signature on another device: the App Store refuses the spent nonce.
            let replay = StoreKeeper(
                configuration: .init(
                    serverURL: server.base, apiKey: KitServer.publicKey,
                    offerSigner: { _, _, _ in try #require(await spent.last) }),
                store: server.store("rex"), persistence: InMemoryPersistence(), clock: TestDeviceClock())
            try await replay.start()
            await #expect(throws: StoreKeeperError(.offerNotSigned, "")) {
                try await replay.purchase(productID: "premium.monthly", promotionalOfferID: "winback50")
            }
            await replay.stop()
        }
    }
}

/// The signatures a test's backend made, so one can be replayed.
actor SpentSignatures {
    var signatures: [OfferSignature] = []
    var count: Int { signatures.count }
    var last: OfferSignature? { signatures.last }

    /// Signs as an app's backend would: `/v1/offers/sign` with the secret key.
    func sign(_ server: KitServer, _ product: String, _ offer: String) async throws -> OfferSignature {
        let (status, body) = try await server.call(
            "POST", "/v1/offers/sign", body: ["product_id": product, "offer_id": offer],
            key: "sk_demo_storekeeper_secret")
        #expect(status == 200, "\(body)")
        let data = try JSONSerialization.data(withJSONObject: body)
        let signature = try APICoding.decoder().decode(OfferSignature.self, from: data)
        #expect(signature.compactJWS != nil)
        signatures.append(signature)
        return signature
    }

    /// The claims of the introductory offer eligibility JWS the server gives for a customer, if it gives one.
    nonisolated func eligibilityClaims(_ server: KitServer, appUserID: String, transactionID: String?) async throws
        -> [String:
        Any]?
    {
        var body = ["product_id": "premium.monthly", "offer_id": "winback50", "app_user_id": appUserID]
        if let transactionID { body["transaction_id"] = transactionID }
        let (status, answer) = try await server.call(
            "POST", "/v1/offers/sign", body: body, key: "sk_demo_storekeeper_secret")
        #expect(status == 200, "\(answer)")
        guard let jws = answer["introductory_offer_eligibility_jws"] as? String else { return nil }
        let parts = jws.split(separator: ".").map(String.init)
        #expect(parts.count == 3)
        var payload = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        payload += String(repeating: "=", count: (4 - payload.count % 4) % 4)
        return try JSONSerialization.jsonObject(with: Data(base64Encoded: payload) ?? Data()) as? [String: Any]
    }
}

/// Restoring on a new device: the store replays the customer's purchases and the server gives them to the new
/// device's user.
@Suite(.timeLimit(.minutes(3))) struct RestoreTests {
    @Test("a purchase made on one device is restored on another by the same Apple Account")
    func restore() async throws {
        try await KitServer.with { server in
            let first = server.launch(server.store("uma"), InMemoryPersistence(), TestDeviceClock())
            try await first.start()
            _ = try await first.purchase(productID: "basic.monthly")
            await first.stop()

            let second = server.launch(server.store("uma"), InMemoryPersistence(), TestDeviceClock())
            try await second.start()
            let restored = try await second.restorePurchases()
            #expect(restored.verification == .server)
            #expect(restored.entitlements["basic"]?.isActive == true)
            #expect(restored.appUserID == (await second.appUserID))
            #expect(try await server.store("uma").unfinishedTransactions().isEmpty)
            await second.stop()
        }
    }
}
