import Foundation
import NIOHTTP1
import StoreKeeperAPI
import StoreKeeperServer
import TestDatabaseSupport
import TestSupport
import Testing

/// Trust round three, item 2: on the routes the app's public key may call, a secret key writes as the owner's
/// backend only with the `support` or `admin` scope; a `read` key is never more powerful there than the public key.
/// The matrix calls every public route with every kind of key; the attacks are the ones the review played.
@Suite struct PublicRouteScopeTests {
    typealias Servers = TenantServers

    /// Every kind of key A has, the public one first.
    static let keys: [(name: String, key: String)] = [
        ("public", Servers.publicA), ("read", Servers.readA), ("support", Servers.supportA), ("admin", Servers.secretA),
    ]

    static func code(_ body: [String: Any]) -> String? { (body["error"] as? [String: Any])?["code"] as? String }

    static func attributes(_ servers: Servers, _ user: String, key: String, _ body: String) async throws -> (
        Int, [String: Any]
    ) {
        try await servers.client.call(.POST, "/v1/subscribers/\(user)/attributes", key: key, body: Data(body.utf8))
    }

    /// The attributes the owner's backend reads back for `user`.
    static func stored(_ servers: Servers, _ user: String) async throws -> [String: String] {
        let (_, body) = try await servers.client.call(.GET, "/v1/subscribers/\(user)/export", key: Servers.secretA)
        return (body["attributes"] as? [String: String]) ?? [:]
    }

    @Test("every public route answers a read key as it answers the public key, and any key may call it")
    func everyPublicRouteWithEveryKey() async throws {
        try await Servers.with("sqlite") { servers in
            let publicRoutes = APIRoute.all.filter { $0.endpoint.scope == nil && $0.endpoint.access == .publicKey }
            #expect(publicRoutes.count >= 8, "the catalog's public routes were read")
            for route in publicRoutes {
                let path = route.endpoint.path(route.endpoint.parameters.map { _ in "probe-\(route.endpoint.method)" })
                let method = route.endpoint.method
                let body = method == .get || method == .delete ? nil : Data("{}".utf8)
                var statuses: [String: Int] = [:]
                for (name, key) in Self.keys {
                    let (status, answer) = try await servers.client.call(
                        HTTPMethod(rawValue: method.rawValue), path, key: key, body: body)
                    #expect(![401, 403].contains(status), "\(route) with the \(name) key: \(status) \(answer)")
                    statuses[name] = status
                }
                #expect(statuses["read"] == statuses["public"], "\(route): \(statuses)")
            }
        }
    }

    @Test("the public key is refused on every secret route, before anything is read or written")
    func publicKeyOnEverySecretRoute() async throws {
        try await Servers.with("sqlite") { servers in
            let secretRoutes = APIRoute.all.filter { $0.endpoint.scope != nil }
            let before = try await servers.store.dump()
            for route in secretRoutes {
                let path = route.endpoint.path(route.endpoint.parameters.map { _ in "probe" })
                let method = route.endpoint.method
                let (status, answer) = try await servers.client.call(
                    HTTPMethod(rawValue: method.rawValue), path, key: Servers.publicA,
                    body: method == .get || method == .delete ? nil : Data("{}".utf8))
                #expect(status == 403 && Self.code(answer) == "secret_key_required", "\(route): \(status) \(answer)")
            }
            #expect(try await servers.store.dump() == before)
        }
    }

    @Test(
        "a read key cannot overwrite or delete what the backend set, nor merge a paying customer; support can",
        arguments: TestDatabases.backends)
    func readKeyWritesAsTheApp(_ backend: String) async throws {
        try await Servers.with(backend) { servers in
            let (set, _) = try await Self.attributes(
                servers, "ann", key: Servers.secretA, #"{"attributes": {"$email": "ann@example.com", "tier": "gold"}}"#)
            #expect(set == 200)

            let (overwrite, answer) = try await Self.attributes(
                servers, "ann", key: Servers.readA, #"{"attributes": {"$email": "mallory@example.com"}}"#)
            #expect(overwrite == 403 && Self.code(answer) == "secret_key_required", "\(answer)")
            // Two at once (the merge and the overwrite the review made), ten times: refused every time.
            try await AliasTakeoverTests.payingCustomer(servers, "payer")
            let paid = try await servers.store.dump()
            for round in 0..<10 {
                async let email = Self.attributes(
                    servers, "ann", key: Servers.readA, #"{"attributes": {"$email": "m\#(round)@example.com"}}"#)
                async let merge = AliasTakeoverTests.alias(
                    servers, "payer", into: "mallory-\(round)", key: Servers.readA)
                let statuses = try await [email.0, merge.0]
                #expect(statuses == [403, 403], "round \(round)")
            }
            #expect(try await servers.store.dump() == paid, "a refused write changes nothing")
            let (deleted, _) = try await servers.client.call(
                .DELETE, "/v1/subscribers/ann/attributes", key: Servers.readA)
            #expect(deleted == 204)
            #expect(try await Self.stored(servers, "ann") == ["$email": "ann@example.com", "tier": "gold"])

            // What a read key sets is the app's: the backend's rules do not read it as server-set.
            let (guest, _) = try await Self.attributes(
                servers, "ann", key: Servers.readA, #"{"attributes": {"segment": "whale"}}"#)
            #expect(guest == 200)
            let (appOverwrites, _) = try await Self.attributes(
                servers, "ann", key: Servers.publicA, #"{"attributes": {"segment": "minnow"}}"#)
            #expect(appOverwrites == 200, "the app may change what a read key set: it is the app's")

            // A support key writes as the backend.
            let (changed, _) = try await Self.attributes(
                servers, "ann", key: Servers.supportA, #"{"attributes": {"tier": "silver"}}"#)
            #expect(changed == 200)
            #expect(try await Self.stored(servers, "ann")["tier"] == "silver")
        }
    }
}
