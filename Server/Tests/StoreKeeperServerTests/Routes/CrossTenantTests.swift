import Foundation
import NIOHTTP1
import StoreKeeperServer
import StoreKeeperStorage
import TestDatabaseSupport
import TestSupport
import Testing

/// Nothing crosses a project: app A's keys never reach app B's customers. The matrix runs every `/v1` route of
/// the router's own catalog (``APIRoute/all``) with each of A's keys against B's users — reads, writes and
/// aliases in both directions — and asserts B's stored rows and B's own answers are unchanged. A's keys include
/// one rotated out of the configuration: it is refused on every route.
@Suite struct CrossTenantTests {
    typealias Servers = TenantServers

    /// One attempt: a path (its first parameter filled in), a body, and what the answer must show when it is a 2xx.
    struct Attack: Sendable {
        var name: String
        var user: String
        /// The path's parameters after the first, in order.
        var segments: [String] = []
        var body: [String: String]?
        var query = ""
        /// A body that is not flat strings (sent instead of `body`).
        var rawBody: String?
        var check: @Sendable (Int, [String: Any]) -> Bool = { _, _ in true }
    }

    /// What B (the victim) has, and A's evidence to attack with.
    struct Ground: Sendable {
        var attackerReceipt: String
        var attackerToken: String
        var victimReceipt: String
        var victimToken: String
        var notification: String
        /// B's subscription: no answer to A may name it.
        var victimOriginal: String
        /// B's webhook endpoint.
        var victimEndpoint: String
        /// A delivery to B's endpoint.
        var victimDelivery: String
        /// Apple's signed real-time Retention Messaging request about A's customer.
        var retentionRequest: String
    }

    /// B's retention rule and its message: no answer to A may name either.
    static let victimRetentionRule = "victim-retention"
    static let victimMessage = "9f1b7c52-3a1e-4d57-8c0e-3e5d7a1b2c90"

    /// B's current offering, and the copy of its paywall no answer to A may show.
    static let victimOffering = "victim-offer"
    static let victimCopy = "b-paywall-copy"

    /// B: `victim` owns a premium subscription and has the alias `victim-device`. A: `mallory` bought her own.
    static func prepare(_ servers: Servers) async throws -> Ground {
        let (added, endpoint) = try await servers.client.call(
            .POST, "/v1/webhooks", key: Servers.secretB, body: servers.client.json(["url": "http://127.0.0.1:9/b"]))
        #expect(added == 201)
        let victimEndpoint = try #require(endpoint["id"] as? String)
        let victim = try await servers.buy(Servers.appB, customer: "victim", options: .init(offer: .introductory))
        let (posted, _) = try await servers.client.call(
            .POST, "/v1/receipts", key: Servers.publicB,
            body: servers.client.json(["app_user_id": "victim", "receipt": victim.receipt]))
        #expect(posted == 200)
        let (aliased, _) = try await servers.client.call(
            .POST, "/v1/subscribers/victim-device/alias", key: Servers.publicB,
            body: servers.client.json(["new_app_user_id": "victim"]))
        #expect(aliased == 200)
        let offering =
            #"{"identifier":"\#(victimOffering)","packages":[{"identifier":"m","product_id":"premium.monthly"}],"metadata":{"title":"\#(victimCopy)"}}"#
        let (offered, _) = try await servers.client.call(
            .POST, "/v1/offerings", key: Servers.secretB, body: Data(offering.utf8))
        let (current, _) = try await servers.client.call(
            .PUT, "/v1/offerings/current", key: Servers.secretB,
            body: servers.client.json(["identifier": victimOffering]))
        let (targeted, _) = try await servers.client.call(
            .PUT, "/v1/targeting", key: Servers.secretB,
            body: Data(#"{"rules":[{"identifier":"victim-rule","offering_id":"\#(victimOffering)"}]}"#.utf8))
        let experiment =
            #"{"identifier":"victim-exp","variants":[{"identifier":"x","offering_id":"\#(victimOffering)","weight":50},{"identifier":"y","offering_id":"\#(victimOffering)","weight":50}]}"#
        let (experimented, _) = try await servers.client.call(
            .POST, "/v1/experiments", key: Servers.secretB, body: Data(experiment.utf8))
        let (started, _) = try await servers.client.call(
            .POST, "/v1/experiments/victim-exp/start", key: Servers.secretB)
        #expect(offered == 201 && current == 200 && targeted == 200 && experimented == 201 && started == 200)
        let (attributed, _) = try await servers.client.call(
            .POST, "/v1/subscribers/victim/attributes", key: Servers.publicB,
            body: Data(#"{"attributes":{"$email":"\#(victimCopy)"}}"#.utf8))
        #expect(attributed == 200)
        let (granted, _) = try await servers.client.call(
            .POST, "/v1/subscribers/victim/entitlements/pro/grants", key: Servers.secretB,
            body: servers.client.json(["duration": "P1M", "reason": victimCopy]))
        #expect(granted == 201)
        let (retained, _) = try await servers.client.call(
            .PUT, "/v1/retention/rules", key: Servers.secretB,
            body: Data(
                #"{"rules":[{"identifier":"\#(victimRetentionRule)","respond":{"message":{"message_id":"\#(victimMessage)"}}}]}"#
                    .utf8))
        #expect(retained == 200)
        let attacker = try await servers.buy(Servers.appA, customer: "mallory")
        let (own, _) = try await servers.client.call(
            .POST, "/v1/transactions", key: Servers.publicA,
            body: servers.client.json(["app_user_id": "mallory", "signed_transaction": attacker.token]))
        #expect(own == 200)
        let notification = try #require(await servers.h.simulator.notifications(for: Servers.appA).last?.signedPayload)
        let asked = try await servers.h.simulator.retentionRequest(
            bundleID: Servers.appA, customerID: "mallory", locale: nil)
        let retention = try #require(
            (try JSONSerialization.jsonObject(with: asked.body) as? [String: Any])?["signedPayload"] as? String)
        let (_, log) = try await servers.client.call(
            .GET, "/v1/webhooks/\(victimEndpoint)/deliveries", key: Servers.secretB)
        let delivery = try #require((log["deliveries"] as? [[String: Any]])?.first?["id"] as? Int)
        return Ground(
            attackerReceipt: attacker.receipt, attackerToken: attacker.token, victimReceipt: victim.receipt,
            victimToken: victim.token, notification: notification, victimOriginal: victim.originalTransactionID,
            victimEndpoint: victimEndpoint, victimDelivery: String(delivery), retentionRequest: retention)
    }

    /// Sends `attack` to `route` with `key`: its path filled in raw, as an attacker writes it (the SDK's path
    /// builder would encode it), its query and body.
    static func send(_ attack: Attack, on route: APIRoute, key: String, _ servers: Servers) async throws -> (
        status: Int, body: Data, contentType: String?
    ) {
        var path = "/" + route.path
        for (name, value) in zip(route.endpoint.parameters, [attack.user] + attack.segments) {
            path = path.replacingOccurrences(of: "{\(name)}", with: value)
        }
        return try await servers.client.exchange(
            NIOHTTP1.HTTPMethod(rawValue: route.method.rawValue), path + attack.query, key: key,
            body: attack.rawBody.map { Data($0.utf8) } ?? attack.body.map { servers.client.json($0) })
    }

    /// Not found in A's project, or not allowed to A's key at all.
    static let refused: @Sendable (Int, [String: Any]) -> Bool = { status, _ in status == 404 || status == 403 }

    @Test(
        "every /v1 route × A's public and secret key × B's users: refused or A's own, B's rows and answers unchanged",
        arguments: TestDatabases.backends)
    func matrix(_ backend: String) async throws {
        try await Servers.with(backend) { servers in
            let ground = try await Self.prepare(servers)
            let dump = try await servers.victimDump()
            let view = try await servers.victimView("victim")
            #expect((view?["subscriptions"] as? [Any])?.count == 1)
            var attempted = 0
            let validator = try OpenAPIAnswerValidator()
            for route in APIRoute.all {
                let attacks = Self.attacks(route, ground)
                #expect(!attacks.isEmpty, "\(route) has no cross-tenant attack: add it to the matrix")
                for attack in attacks {
                    for key in [Servers.publicA, Servers.secretA, Servers.retiredSecretA] {
                        let (status, data, contentType) = try await Self.send(attack, on: route, key: key, servers)
                        let answer = (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
                        let label = "\(route) \(attack.name) with \(key.prefix(11))…: \(status) \(answer)"
                        #expect(status < 500, "\(label)")
                        // Every answer, refusal or not, is one the document describes.
                        let problems = validator.problems(route, status: status, body: data, contentType: contentType)
                        #expect(problems.isEmpty, "\(label): \(problems)")
                        if key == Servers.retiredSecretA, route.access != .apple {
                            #expect(status == 401, "a rotated-out key: \(label)")
                        } else {
                            #expect(attack.check(status, answer), "\(label)")
                        }
                        let now = try await servers.victimDump()
                        let changed = Set(now.split(separator: "\n")).symmetricDifference(dump.split(separator: "\n"))
                        #expect(changed.isEmpty, "\(label) changed B's rows: \(changed.sorted())")
                        #expect(try await servers.victimView("victim") == view, "\(label) changed B's answer")
                        attempted += 1
                    }
                }
            }
            #expect(attempted >= APIRoute.all.count * 3)
        }
    }

    @Test(
        "defect 1: A's public key cannot move B's subscriber by alias, in either direction",
        arguments: TestDatabases.backends)
    func aliasAcrossProjects(_ backend: String) async throws {
        try await Servers.with(backend) { servers in
            _ = try await Self.prepare(servers)
            let view = try await servers.victimView("victim")
            let (moved, _) = try await servers.client.call(
                .POST, "/v1/subscribers/victim/alias", key: Servers.publicA,
                body: servers.client.json(["new_app_user_id": "x"]))
            #expect(moved == 200)  // A's own (empty) `victim` became A's `x`
            let (_, stolen) = try await servers.client.call(.GET, "/v1/subscribers/x", key: Servers.publicA)
            #expect(((stolen["subscriber"] as? [String: Any])?["subscriptions"] as? [Any])?.isEmpty == true)
            let (_, _) = try await servers.client.call(
                .POST, "/v1/subscribers/mallory/alias", key: Servers.publicA,
                body: servers.client.json(["new_app_user_id": "victim"]))
            #expect(try await servers.victimView("victim") == view)
            let (status, _) = try await servers.client.call(.GET, "/v1/subscribers/victim", key: Servers.publicB)
            #expect(status == 200)
        }
    }

    @Test(
        "defect 2: A's public key cannot write A's evidence into B's subscriber (transactions and receipts)",
        arguments: TestDatabases.backends)
    func writeAcrossProjects(_ backend: String) async throws {
        try await Servers.with(backend) { servers in
            let ground = try await Self.prepare(servers)
            let view = try await servers.victimView("victim")
            let (viaToken, _) = try await servers.client.call(
                .POST, "/v1/transactions", key: Servers.publicA,
                body: servers.client.json(["app_user_id": "victim", "signed_transaction": ground.attackerToken]))
            let (viaReceipt, _) = try await servers.client.call(
                .POST, "/v1/receipts", key: Servers.publicA,
                body: servers.client.json(["app_user_id": "victim", "receipt": ground.attackerReceipt]))
            #expect(viaToken == 200 && viaReceipt == 200)  // stored for A's own customer named `victim`
            #expect(try await servers.victimView("victim") == view)
            // The same id in two projects is two customers: A's `victim` has A's subscription, B's has B's.
            let (_, theirs) = try await servers.client.call(.GET, "/v1/subscribers/victim", key: Servers.publicA)
            let subscriptions = (theirs["subscriber"] as? [String: Any])?["subscriptions"] as? [[String: Any]] ?? []
            let original = (view?["subscriptions"] as? [[String: Any]])?.first?["original_transaction_id"] as? String
            #expect(subscriptions.count == 1 && subscriptions.first?["original_transaction_id"] as? String != original)
        }
    }

    @Test("defect 3: A's secret key cannot read B's history", arguments: TestDatabases.backends)
    func historyAcrossProjects(_ backend: String) async throws {
        try await Servers.with(backend) { servers in
            _ = try await Self.prepare(servers)
            let (own, mine) = try await servers.client.call(.GET, "/v1/subscribers/victim/events", key: Servers.secretB)
            #expect(own == 200 && (mine["events"] as? [Any])?.isEmpty == false)
            let (status, theirs) = try await servers.client.call(
                .GET, "/v1/subscribers/victim/events", key: Servers.secretA)
            #expect(status == 200 && (theirs["events"] as? [Any])?.isEmpty == true)
        }
    }

    @Test("defect 4: A's public key cannot read B's eligibility", arguments: TestDatabases.backends)
    func eligibilityAcrossProjects(_ backend: String) async throws {
        try await Servers.with(backend) { servers in
            _ = try await Self.prepare(servers)
            let path = "/v1/subscribers/victim/eligibility?product_ids=premium.monthly"
            let (_, own) = try await servers.client.call(.GET, path, key: Servers.publicB)
            #expect((own["eligibility"] as? [String: String])?["premium.monthly"] == "ineligible")
            let (_, theirs) = try await servers.client.call(.GET, path, key: Servers.publicA)
            #expect((theirs["eligibility"] as? [String: String])?["premium.monthly"] == "eligible")
        }
    }

    @Test(
        "a forged retention request is refused for its signature before any app is named missing",
        arguments: TestDatabases.backends)
    func retentionVerifiedBeforeRouting(_ backend: String) async throws {
        try await Servers.with(backend) { servers in
            let ground = try await Self.prepare(servers)
            let forged = try JWSTamper.selfSigned(ground.retentionRequest) { $0["appAppleId"] = 424_242 }
            let (refused, why) = try await servers.client.call(
                .POST, "/v1/retention/appstore", key: nil, body: servers.client.json(["signedPayload": forged]))
            let code = (why["error"] as? [String: Any])?["code"] as? String
            #expect(refused == 422, "\(refused) \(why)")
            #expect(code != nil && code != "unknown_app", "\(why)")
            // Apple's genuine request for an app this server does not know by its Apple id names the app missing.
            let (unknown, named) = try await servers.client.call(
                .POST, "/v1/retention/appstore", key: nil,
                body: servers.client.json(["signedPayload": ground.retentionRequest]))
            #expect(((named["error"] as? [String: Any])?["code"] as? String) == "unknown_app", "\(unknown) \(named)")
        }
    }

    @Test(
        "apps grouped into one project share their customers: either app's key reaches them",
        arguments: TestDatabases.backends)
    func groupedProject(_ backend: String) async throws {
        let family = ServerConfiguration.Project(id: "family", apps: [Servers.appA, Servers.appB])
        try await Servers.with(backend, projects: [family]) { servers in
            _ = try await Self.prepare(servers)
            let (status, shared) = try await servers.client.call(.GET, "/v1/subscribers/victim", key: Servers.publicA)
            #expect(status == 200)
            #expect(((shared["subscriber"] as? [String: Any])?["subscriptions"] as? [Any])?.count == 1)
            let (_, history) = try await servers.client.call(
                .GET, "/v1/subscribers/victim-device/events", key: Servers.secretA)
            #expect((history["events"] as? [Any])?.isEmpty == false)
        }
    }
}
