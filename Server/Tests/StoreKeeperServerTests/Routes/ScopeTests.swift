import Foundation
import NIOHTTP1
import StoreKeeperAPI
import StoreKeeperServer
import StoreKeeperStorage
import TestDatabaseSupport
import TestSupport
import Testing

/// Scoped secret keys: each `/v1` route of the router's catalog needs a scope (`read` < `support` < `admin`), and a
/// key of a narrower one is refused with 403 `insufficient_scope` naming the scope needed, before anything is read
/// or written. The matrix calls every secret route with A's `read`, `support` and `admin` keys; the dashboard signed
/// in with a `read` key shows the rules without their editor and refuses a forged save.
@Suite struct ScopeTests {
    typealias Servers = TenantServers

    /// The route's path with a placeholder id, and a body for the routes that take one.
    static func request(_ route: APIRoute) -> (path: String, body: Data?) {
        let path = route.endpoint.path(route.endpoint.parameters.map { _ in "scope-probe" })
        let method = route.endpoint.method
        return (path, method == .get || method == .delete ? nil : Data("{}".utf8))
    }

    static func code(_ body: [String: Any]) -> String? { (body["error"] as? [String: Any])?["code"] as? String }

    @Test(
        "each secret route refuses a key whose scope is narrower than its own, changing nothing",
        arguments: TestDatabases.backends)
    func everyRouteAgainstEveryScope(_ backend: String) async throws {
        try await Servers.with(backend) { servers in
            let keys: [(APIEndpoint.Scope, String)] = [
                (.read, Servers.readA), (.support, Servers.supportA), (.admin, Servers.secretA),
            ]
            let secretRoutes = APIRoute.all.filter { $0.endpoint.scope != nil }
            #expect(secretRoutes.count >= 25, "the catalog's secret routes were read")
            #expect(secretRoutes.contains { $0.endpoint.scope == .read })
            #expect(secretRoutes.contains { $0.endpoint.scope == .admin })
            // The refused calls first: they must change nothing.
            let before = try await servers.store.dump()
            var refusedCount = 0
            for route in secretRoutes {
                let needed = try #require(route.endpoint.scope)
                let (path, body) = Self.request(route)
                for (scope, key) in keys where !scope.includes(needed) {
                    let (status, answer) = try await servers.client.call(
                        HTTPMethod(rawValue: route.endpoint.method.rawValue), path, key: key, body: body)
                    #expect(status == 403 && Self.code(answer) == "insufficient_scope", "\(route) with \(scope)")
                    let message = (answer["error"] as? [String: Any])?["message"] as? String ?? ""
                    #expect(message.contains(needed.rawValue) && message.contains(scope.rawValue), "\(message)")
                    refusedCount += 1
                }
            }
            #expect(refusedCount >= 20)
            #expect(try await servers.store.dump() == before, "a refused call changed stored state")
            // A key whose scope includes the route's gets past the check (its answer is the route's own).
            for route in secretRoutes {
                let needed = try #require(route.endpoint.scope)
                let (path, body) = Self.request(route)
                for (scope, key) in keys where scope.includes(needed) {
                    let (status, answer) = try await servers.client.call(
                        HTTPMethod(rawValue: route.endpoint.method.rawValue), path, key: key, body: body)
                    #expect(
                        !(status == 403 && Self.code(answer) == "insufficient_scope"),
                        "\(route) with \(scope): \(status)")
                }
            }
        }
    }

    @Test("a public key is never a scoped secret key, and the document names each route's scope")
    func publicKeysAndTheDocument() async throws {
        try await Servers.with("sqlite") { servers in
            let (status, answer) = try await servers.client.call(.GET, "/v1/subscribers", key: Servers.publicA)
            #expect(status == 403 && Self.code(answer) == "secret_key_required")
        }
        var configuration = ServerConfiguration()
        configuration.apps = [ServerConfiguration.App(bundleID: "com.example.scoped")]
        configuration.apiKeys = [
            .init(
                key: "pk_" + String(repeating: "s", count: 40), kind: .public, bundleID: "com.example.scoped",
                scope: .admin)
        ]
        #expect(throws: (any Error).self) { try configuration.validate() }
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.bytes)) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: [String: [String: Any]]])
        for route in APIRoute.all {
            let operation = paths[OpenAPIDocument.documentPath(route)]?[route.endpoint.method.rawValue.lowercased()]
            #expect(operation?["x-storekeeper-scope"] as? String == route.endpoint.scope?.rawValue, "\(route)")
        }
    }

    @Test("the dashboard signed in with a read key shows the rules without the editor and refuses a forged save")
    func dashboardWithAReadKey() async throws {
        try await Servers.with("sqlite") { servers in
            let base = servers.client.base
            let cookie = try #require(try await TestBrowser(base: base).signIn(key: Servers.readA))
            let browser = TestBrowser(base: base, cookie: cookie)
            for page in ["/dashboard/offerings", "/dashboard/retention"] {
                let shown = try await browser.go(.GET, page)
                #expect(shown.status == 200)
                #expect(!shown.body.contains("name=\"rules\"") && shown.body.contains("needs an admin key"), "\(page)")
            }
            let (_, before) = try await servers.client.call(.GET, "/v1/targeting", key: Servers.secretA)
            let token = try #require(TestBrowser.csrf(in: try await browser.go(.GET, "/dashboard").body))
            let rules = #"{"rules":[{"identifier":"forged","offering_id":"nothing"}]}"#
            let forged = try await browser.go(
                .POST, "/dashboard/targeting",
                form: "csrf=\(token)&rules=\(rules.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)")
            #expect(forged.status == 403 && forged.body.contains("scope admin"))
            let (_, after) = try await servers.client.call(.GET, "/v1/targeting", key: Servers.secretA)
            #expect(NSDictionary(dictionary: after) == NSDictionary(dictionary: before))
            // An admin key's session has the editor.
            let adminCookie = try #require(try await TestBrowser(base: base).signIn(key: Servers.secretA))
            let admin = try await TestBrowser(base: base, cookie: adminCookie).go(.GET, "/dashboard/offerings")
            #expect(admin.body.contains("name=\"rules\""))
        }
    }
}
