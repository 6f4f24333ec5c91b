import Foundation
import StoreKeeperAPI
import TestSupport
import Testing

@testable import StoreKeeperServer

/// A route is declared once, in its feature's file in the SDK (`Sources/StoreKeeperAPI/Routes`), and everything
/// else reads that declaration: no second list of routes, no `"/v1…"` path written anywhere else in the sources, and
/// a route with two named parameters is served, documented with both and built by the SDK from the same words.
@Suite struct RouteDeclarationTests {
    /// Where routes are declared.
    static let declarations = "Sources/StoreKeeperAPI/Routes"

    /// Each Swift file under `folders` of the repository, with its text.
    static func sources(_ folders: [String]) throws -> [(path: String, text: String)] {
        var found: [(String, String)] = []
        for folder in folders {
            let root = Fixtures.repositoryRoot.appendingPathComponent(folder)
            let files = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
            for case let file as URL in files where file.pathExtension == "swift" {
                let path = String(file.path.dropFirst(Fixtures.repositoryRoot.path.count + 1))
                found.append((path, try String(contentsOf: file, encoding: .utf8)))
            }
        }
        return found
    }

    @Test("no source outside the declarations writes a /v1 path (Apple's own API, in the simulator, is Apple's)")
    func noPathLiteralOutsideTheDeclarations() throws {
        let files = try Self.sources(["Sources", "Server/Sources", "Clients"])
        #expect(files.count > 300, "the sources were read")
        var written: [String] = []
        for (path, text) in files where !path.hasPrefix(Self.declarations) {
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                guard !code.hasPrefix("//") else { continue }
                let ours = code.contains("\"/v1") || (code.contains("\"v1/") && !path.contains("AppStoreSimulator"))
                if ours { written.append("\(path):\(number + 1): \(code)") }
            }
        }
        #expect(written.isEmpty, "paths written outside the declarations:\n\(written.joined(separator: "\n"))")
    }

    @Test("every declared route is in the one list, once; the server serves that list and nothing else")
    func oneList() throws {
        let declared = try Self.sources([Self.declarations]).map { file in
            file.text.components(separatedBy: "= APIEndpoint(\n").count - 1
        }.reduce(0, +)
        #expect(declared == APIEndpoint.all.count)
        #expect(Set(APIEndpoint.all).count == APIEndpoint.all.count, "a route declared twice")
        #expect(APIRoute.all.map(\.endpoint) == APIEndpoint.all)
    }

    @Test("a route with two path parameters: one declaration names both for the router, the document and the SDK")
    func twoParameters() throws {
        let grant = APIEndpoint.postGrant
        #expect(grant.pattern == "v1/subscribers/{app_user_id}/entitlements/{entitlement}/grants")
        #expect(grant.path("a b/c", "pro") == "/v1/subscribers/a%20b%2Fc/entitlements/pro/grants")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.bytes)) as? [String: Any])
        let operation = try #require(
            ((document["paths"] as? [String: Any])?["/" + grant.pattern] as? [String: Any])?["post"] as? [String: Any])
        let parameters = (operation["parameters"] as? [[String: Any]] ?? []).filter { $0["in"] as? String == "path" }
        #expect(parameters.compactMap { $0["name"] as? String } == ["app_user_id", "entitlement"])
    }
}
