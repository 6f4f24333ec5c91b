import AsyncHTTPClient
import Foundation
import NIOCore
import StoreKeeperAPI
import StoreKeeperServer
import TestSupport
import Testing

/// `/openapi.json` and the `StoreKeeperAPI` types describe one contract: every schema is a type of the same
/// name with exactly the same properties, every API type has its schema, and the documented paths, generated
/// from the router's catalog, are that catalog with each route's parameters and access.
@Suite struct APIContractTests {
    static func document() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.bytes)) as? [String: Any])
    }

    /// The API types `Sources/StoreKeeperAPI` declares with members (public `Codable` structs), by file.
    static func declaredTypes() throws -> [(file: String, name: String)] {
        let folder = Fixtures.repositoryRoot.appendingPathComponent("Sources/StoreKeeperAPI")
        var types: [(file: String, name: String)] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for match in text.matches(of: /public struct (\w+): Codable/) {
                types.append((text, String(match.output.1)))
            }
        }
        return types
    }

    @Test("every API type describes its members beside them, and the document holds each one the routes use")
    func schemasAreTypes() throws {
        let schemas = try #require(
            (try Self.document()["components"] as? [String: Any])?["schemas"] as? [String: [String: Any]])
        // The words a parameter takes from a server enum: their cases, derived, not a type's fields.
        for name in OpenAPIDocument.vocabularyNames {
            #expect((schemas[name]?["enum"] as? [String])?.isEmpty == false, "\(name)")
        }
        let declared = try Self.declaredTypes()
        #expect(declared.count > 60, "the sources were read")
        var inlined: Set<String> = []
        for (text, name) in declared {
            #expect(text.contains("\(name): APIDocumented {"), "\(name) does not describe its members")
            for match in text.matches(of: /\.inline\((?:\w+\.)*(\w+)\.self\)/) {
                inlined.insert(String(match.output.1))
            }
        }
        let names = Set(declared.map(\.name))
        let documented = Set(schemas.keys).subtracting(OpenAPIDocument.vocabularyNames)
        #expect(documented == names.subtracting(inlined), "documented types and declared types differ")
        // A component's members are its type's keys, each described (the description is a switch over them).
        let subscription = try #require(schemas["Subscription"]?["properties"] as? [String: Any])
        #expect(Set(subscription.keys) == Set(Subscription.CodingKeys.allCases.map(\.stringValue)))
    }

    @Test("the documented paths are the router's catalog, method for method")
    func pathsAreRoutes() throws {
        let paths = try #require(try Self.document()["paths"] as? [String: [String: Any]])
        let documented = Set(paths.flatMap { path, operations in operations.keys.map { "\($0.uppercased()) \(path)" } })
        #expect(documented == Set(APIRoute.all.map(\.description)))
        #expect(Set(APIRoute.all).count == APIRoute.all.count, "a route declared twice")
    }

    @Test("a route's path parameters are its declaration's, each named in the path and documented with its type")
    func pathParameters() throws {
        let paths = try #require(try Self.document()["paths"] as? [String: [String: [String: Any]]])
        for route in APIRoute.all {
            let names = route.endpoint.pathParameters.map(\.name)
            #expect(
                route.path.split(separator: "/").filter { $0.hasPrefix("{") }.map(String.init)
                    == names.map { "{\($0)}" })
            #expect(route.operation.parameters.allSatisfy { $0.location == .query }, "\(route)")
            let operation = paths[OpenAPIDocument.documentPath(route)]?[route.method.rawValue.lowercased()]
            let documented = (operation?["parameters"] as? [[String: Any]] ?? []).filter {
                $0["in"] as? String == "path"
            }
            #expect(documented.compactMap { $0["name"] as? String } == names, "\(route)")
            #expect(documented.allSatisfy { $0["required"] as? Bool == true && $0["schema"] != nil }, "\(route)")
        }
    }

    @Test("every reference in the document names a component it has")
    func referencesResolve() throws {
        let document = try Self.document()
        let components = try #require(document["components"] as? [String: [String: Any]])
        var references: [String] = []
        func walk(_ value: Any) {
            if let object = value as? [String: Any] {
                if let reference = object["$ref"] as? String { references.append(reference) }
                object.values.forEach(walk)
            } else if let array = value as? [Any] {
                array.forEach(walk)
            }
        }
        walk(document)
        #expect(references.count > APIRoute.all.count)
        for reference in Set(references) {
            let parts = reference.split(separator: "/").map(String.init)
            #expect(parts.count == 4 && parts[0] == "#" && parts[1] == "components", "\(reference)")
            guard parts.count == 4 else { continue }
            #expect(components[parts[2]]?[parts[3]] != nil, "\(reference) names no component")
        }
    }

    @Test("the document states each route's access: none for Apple's, either key for public, the secret key else")
    func securityFollowsAccess() throws {
        let paths = try #require(try Self.document()["paths"] as? [String: [String: [String: Any]]])
        for route in APIRoute.all {
            let operation = try #require(
                paths[OpenAPIDocument.documentPath(route)]?[route.method.rawValue.lowercased()], "\(route)")
            let schemes = (operation["security"] as? [[String: Any]] ?? []).flatMap(\.keys).sorted()
            let expected: [String] =
                switch route.access {
                case .apple: []
                case .publicKey: ["publicKey", "secretKey"]
                case .secretKey: ["secretKey"]
                }
            #expect(schemes == expected, "\(route)")
        }
    }

    @Test("APIPath builds the paths the router serves, one segment per id")
    func pathsBuilt() {
        #expect(APIPath.subscriber("a/b c") == "/v1/subscribers/a%2Fb%20c")
        #expect(
            APIPath.eligibility("u", productIDs: ["p.1", "p 2"])
                == "/v1/subscribers/u/eligibility?product_ids=p.1,p%202")
        #expect(APIPath.alias("u") == "/v1/subscribers/u/alias" && APIPath.events("u") == "/v1/subscribers/u/events")
        #expect(APIPath.receipts == "/v1/receipts" && APIPath.transactions == "/v1/transactions")
    }

    /// A raw answer's status and body.
    static func raw(_ base: String, _ path: String, key: String) async throws -> (Int, Data) {
        var request = HTTPClientRequest(url: base + path)
        request.headers.add(name: "Authorization", value: "Bearer \(key)")
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        return (Int(response.status.code), Data(buffer: try await response.body.collect(upTo: 8 << 20)))
    }

    @Test("the server's answers decode as the API types, with the values the server meant")
    func answersDecode() async throws {
        try await TenantServers.with("sqlite") { servers in
            _ = try await CrossTenantTests.prepare(servers)
            let base = servers.client.base
            let decoder = APICoding.decoder()
            let (_, subscriberBody) = try await Self.raw(base, APIPath.subscriber("victim"), key: TenantServers.publicB)
            let subscriber = try decoder.decode(SubscriberResponse.self, from: subscriberBody).subscriber
            #expect(subscriber.appUserID == "victim" && subscriber.aliases == ["victim-device"])
            #expect(
                subscriber.subscriptions.first?.status == "active"
                    && subscriber.subscriptions.first?.offer?.kind == "freeTrial")
            #expect(
                subscriber.entitlements.first?.identifier == "pro" && subscriber.entitlements.first?.expiresAt != nil)
            let (_, eventsBody) = try await Self.raw(base, APIPath.events("victim"), key: TenantServers.secretB)
            #expect(
                try decoder.decode(EventsResponse.self, from: eventsBody).events.contains {
                    $0.type == "receipt_posted"
                })
            let (_, eligibilityBody) = try await Self.raw(
                base, APIPath.eligibility("victim", productIDs: ["premium.monthly"]), key: TenantServers.publicB)
            #expect(
                try decoder.decode(EligibilityResponse.self, from: eligibilityBody).eligibility["premium.monthly"]
                    == "ineligible")
            let (status, errorBody) = try await Self.raw(base, APIPath.events("victim"), key: TenantServers.publicB)
            #expect(status == 403)
            #expect(try decoder.decode(ErrorBody.self, from: errorBody).error.code == .secretKeyRequired)
        }
    }
}
