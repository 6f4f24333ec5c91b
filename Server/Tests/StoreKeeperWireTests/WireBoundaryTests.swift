import Foundation
import TestSupport
import Testing

/// The wire is written in one module: no JSON string escaper, JWS/JWT builder or constant-time compare lives
/// outside `StoreKeeperWire`. This test reads every shipped source (TestSupport forges tokens on purpose and is
/// left out) for the marks each leaves: a `\u00` escape being written, a JOSE header spelled as a literal, a
/// compare that folds differences with `|=`.
@Suite struct WireBoundaryTests {
    static let roots = ["Server/Sources", "Sources"]
    static let wire = "Sources/StoreKeeperWire/"

    /// Each shipped Swift file outside the wire module, by its path from the repository root, with its text.
    static func sources() throws -> [(path: String, text: String)] {
        var found: [(String, String)] = []
        for root in roots {
            let url = Fixtures.repositoryRoot.appendingPathComponent(root)
            let files = try #require(FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil))
            for case let file as URL in files where file.pathExtension == "swift" {
                let path = root + "/" + file.path.dropFirst(url.path.count + 1)
                guard !path.hasPrefix(wire), !path.hasPrefix("Server/Sources/TestSupport/") else { continue }
                found.append((path, try String(contentsOf: file, encoding: .utf8)))
            }
        }
        return found
    }

    @Test func noJSONEscaperJWTBuilderOrConstantTimeCompareOutsideTheWireModule() throws {
        let sources = try Self.sources()
        #expect(sources.count > 100, "the sources were read")
        let marks: [(String, Regex<Substring>)] = [
            ("a JSON string escaper", /\\u00|"u00"/),
            ("a JOSE header literal", /\{\\?"alg\\?"\s*:|"alg"\s*:\s*"/),
            ("a constant-time compare", /\|=?\s*\(?[^\n|]*\s\^\s/),
        ]
        var found: [String] = []
        for (path, text) in sources {
            for (name, mark) in marks where text.contains(mark) { found.append("\(path): \(name)") }
        }
        #expect(found.isEmpty, "\(found)")
    }
}
