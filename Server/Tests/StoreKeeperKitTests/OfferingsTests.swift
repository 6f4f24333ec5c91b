import Foundation
import StoreKeeperAPI
import StoreKeeperKit
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `offerings()` against a real `storekeeper serve`: what the server's offerings say, priced by the store, changed
/// on the server without an app release; from the device's cache at once and offline; bounded when the server is
/// slow or down and nothing is cached.
@Suite(.timeLimit(.minutes(3))) struct OfferingsTests {
    static let secretKey = "sk_demo_storekeeper_secret"

    /// The owner's backend edits the project's offerings (secret key).
    static func edit(_ server: KitServer, _ method: String, _ path: String, _ body: [String: Any]) async throws {
        let (status, answer) = try await server.call(method, path, body: body, key: Self.secretKey)
        #expect((200..<300).contains(status), "\(method) \(path): \(status) \(answer)")
    }

    static func offering(_ identifier: String, _ packages: [(String, String)], title: String) -> [String: Any] {
        [
            "identifier": identifier,
            "packages": packages.map { ["identifier": $0.0, "product_id": $0.1] },
            "metadata": ["title": title],
        ]
    }

    /// A client whose offerings wait at most `timeout` (30 s unless a spec times them out; the app's default is
    /// 5 s, and a busy machine running the whole suite is slower than a phone).
    static func launch(
        _ server: KitServer, _ store: SimulatorStore, _ persistence: InMemoryPersistence, url: URL? = nil,
        timeout: TimeInterval = 30, requestTimeout: TimeInterval = 20, client: ClientDescription? = nil
    ) -> StoreKeeper {
        var configuration = StoreKeeper.Configuration(
            serverURL: url ?? server.base, apiKey: KitServer.publicKey, requestTimeout: requestTimeout)
        configuration.offeringsTimeout = timeout
        if let client { configuration.client = client }
        return StoreKeeper(
            configuration: configuration, store: store, persistence: persistence, clock: TestDeviceClock())
    }

    @Test(
        "the server's offerings with the store's products; a change on the server reaches the app; a package is bought")
    func served() async throws {
        try await KitServer.with { server in
            try await Self.edit(
                server, "POST", APIPath.offerings,
                Self.offering(
                    "spring", [("monthly", "premium.monthly"), ("annual", "premium.annual")], title: "Go Pro"))
            try await Self.edit(server, "PUT", APIPath.currentOffering, ["identifier": "spring"])
            let store = server.store("olga")
            let kit = Self.launch(server, store, InMemoryPersistence())
            try await kit.start()
            let offerings = try await kit.offerings()
            let current = try #require(offerings.current)
            #expect(!offerings.isFromCache && current.identifier == "spring")
            #expect(current.packages.map(\.identifier) == ["monthly", "annual"])
            #expect(current.package("monthly")?.product.displayPrice.isEmpty == false)
            #expect(current.package("monthly")?.product.isEligibleForIntroOffer == true)
            #expect(current.metadata["title"]?.stringValue == "Go Pro")

            // The paywall changes on the server: the next call answers from the cache at once and asks the
            // server in the background; the call after shows the change.
            try await Self.edit(
                server, "PUT", APIPath.offering("spring"),
                [
                    "packages": [["identifier": "annual", "product_id": "premium.annual"]],
                    "metadata": ["title": "Save"],
                ])
            let cached = try await kit.offerings()
            #expect(cached.isFromCache && cached.current?.metadata["title"] == .string("Go Pro"))
            var changed = try await kit.offerings()
            for _ in 0..<50 where changed.current?.metadata["title"] != .string("Save") {
                try await Task.sleep(nanoseconds: 50_000_000)
                changed = try await kit.offerings()
            }
            #expect(changed.current?.packages.map(\.product.id) == ["premium.annual"])

            let package = try #require(changed.current?.package("annual"))
            guard case .purchased(let info) = try await kit.purchase(package: package) else {
                Issue.record("the package was not bought")
                return
            }
            #expect(info.entitlements["pro"]?.isActive == true)
        }
    }

    @Test("what the app says about itself (platform, version, language) reaches the server's targeting rules")
    func targeted() async throws {
        try await KitServer.with { server in
            try await Self.edit(
                server, "POST", APIPath.offerings, Self.offering("vision", [("annual", "premium.annual")], title: "V"))
            try await Self.edit(
                server, "PUT", APIPath.targeting,
                [
                    "rules": [
                        [
                            "identifier": "headset", "offering_id": "vision",
                            "when": ["platforms": ["visionOS"], "app_version": ["at_least": "2.0"], "locales": ["fr"]],
                        ]
                    ]
                ])
            let headset = ClientDescription(platform: "visionOS", appVersion: "2.1", locale: "fr-CA")
            let kit = Self.launch(server, server.store("sam"), InMemoryPersistence(), client: headset)
            try await kit.start()
            let shown = try await kit.offerings()
            #expect(shown.current?.identifier == "vision" && shown.targetingRule == "headset")
            let phone = ClientDescription(platform: "iOS", appVersion: "2.1", locale: "fr-CA")
            let other = Self.launch(server, server.store("tim"), InMemoryPersistence(), client: phone)
            try await other.start()
            #expect(try await other.offerings().current?.identifier == "default")  // the demo's own
        }
    }

    @Test("an experiment: the app is shown its variant's offering and told which, the same at every launch")
    func experiment() async throws {
        try await KitServer.with { server in
            try await Self.edit(
                server, "POST", APIPath.offerings, Self.offering("cheap", [("monthly", "basic.monthly")], title: "C"))
            try await Self.edit(
                server, "POST", APIPath.experiments,
                [
                    "identifier": "price",
                    "variants": [
                        ["identifier": "control", "offering_id": "default", "weight": 50],
                        ["identifier": "cheap", "offering_id": "cheap", "weight": 50],
                    ],
                ])
            try await Self.edit(server, "POST", APIPath.experiment("price") + "/start", [:])
            let persistence = InMemoryPersistence()
            let kit = Self.launch(server, server.store("uma"), persistence)
            try await kit.start()
            let shown = try await kit.offerings()
            let assignment = try #require(shown.experiment)
            #expect(assignment.identifier == "price")
            #expect(shown.current?.identifier == (assignment.variant == "control" ? "default" : "cheap"))
            await kit.stop()
            let relaunched = Self.launch(server, server.store("uma"), persistence)
            try await relaunched.start()
            // Served from the device's cache at once; the server, asked in the background, agrees.
            let again = try await relaunched.offerings()
            let id = try #require(await relaunched.appUserID)
            var request = URLRequest(url: URL(string: server.base.absoluteString + APIPath.subscriberOfferings(id))!)
            request.setValue("Bearer \(KitServer.publicKey)", forHTTPHeaderField: "Authorization")
            let fetched = try APICoding.decoder().decode(
                OfferingsResponse.self, from: try await KitServer.exchange(request).1)
            #expect(fetched.experiment == assignment)
            #expect(again.experiment == assignment && again.current?.identifier == shown.current?.identifier)
        }
    }

    @Test("attributes the app sets reach the server and the targeting rules that trust the client")
    func attributes() async throws {
        try await KitServer.with { server in
            try await Self.edit(
                server, "POST", APIPath.offerings, Self.offering("pro", [("annual", "premium.annual")], title: "P"))
            try await Self.edit(
                server, "PUT", APIPath.targeting,
                [
                    "rules": [
                        [
                            "identifier": "pros", "offering_id": "pro",
                            "when": ["attributes": ["plan": "pro"], "trust": "client"],
                        ]
                    ]
                ])
            let kit = Self.launch(server, server.store("vic"), InMemoryPersistence())
            try await kit.start()
            #expect(try await kit.setAttributes(["$email": "vic@example.com", "plan": "pro"])["plan"] == "pro")
            #expect(try await kit.offerings().current?.identifier == "pro")
            await #expect(throws: StoreKeeperError(.server, "")) { try await kit.setAttributes(["$nope": "x"]) }
            // Who the person is stays with the owner: the app's public key is answered no $email.
            #expect(try await kit.setAttributes(["plan": nil]) == [:])
        }
    }

    @Test("server down: the last offerings from the device's cache; nothing cached: a typed error at once")
    func offline() async throws {
        try await KitServer.with { server in
            try await Self.edit(
                server, "POST", APIPath.offerings,
                Self.offering("spring", [("monthly", "premium.monthly")], title: "A"))
            try await Self.edit(server, "PUT", APIPath.currentOffering, ["identifier": "spring"])
            let store = server.store("pia")
            let persistence = InMemoryPersistence()
            let online = Self.launch(server, store, persistence)
            try await online.start()
            #expect(try await online.offerings().current?.identifier == "spring")
            await online.stop()

            // The next launch cannot reach the server: the paywall shows what was saved.
            let down = Self.launch(server, store, persistence, url: KitServer.unreachable)
            try await down.start()
            let cached = try await down.offerings()
            #expect(cached.isFromCache && cached.current?.package("monthly")?.product.id == "premium.monthly")
            await down.stop()

            // A first launch with the server down has nothing to show, and says so.
            let fresh = Self.launch(server, server.store("quinn"), InMemoryPersistence(), url: KitServer.unreachable)
            try await fresh.start()
            await #expect(throws: StoreKeeperError(.offline, "")) { try await fresh.offerings() }
        }
    }

    @Test(
        "a server that never answers: each request gives up after requestTimeout; offerings fail as timed out within offeringsTimeout"
    )
    func slow() async throws {
        try await KitServer.with { server in
            let silent = try SilentReceiver()
            defer { silent.stop() }
            // Each request may take 24 s; offerings() waits 1 s for the server and the store together. The gap
            // between the two is wide on purpose: beside the whole suite on 2 cores a 1 s wait was once seen to
            // end after 5.5 s (the cooperative pool is shared), and the check must still tell 1 s from 24 s.
            let kit = Self.launch(
                server, server.store("rae"), InMemoryPersistence(), url: URL(string: silent.base)!, timeout: 1,
                requestTimeout: 24)
            let started = ContinuousClock.now
            try await kit.start()  // cannot verify after its own 24 s: not an error
            // Each request is bounded as a whole (FoundationNetworking's own bound is 60 s).
            #expect(ContinuousClock.now - started < .seconds(48), "start took \(ContinuousClock.now - started)")
            let asked = ContinuousClock.now
            await #expect(throws: StoreKeeperError(.timedOut, "")) { try await kit.offerings() }
            let waited = ContinuousClock.now - asked
            // Bounded by offeringsTimeout, not by a request's 24 s.
            #expect(waited >= .milliseconds(900) && waited < .seconds(16), "waited \(waited)")
        }
    }
}
