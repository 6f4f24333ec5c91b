import Foundation
import TestSupport
import Testing

/// docs/architecture.md is held to the code: it names every target of both manifests (the server's package in
/// `Server/` and the SDK's at the repository root), every store protocol `Store` is made of and every room (an
/// `APIFeature`), and every file its how-tos name exists — so a module, a store or a room added without a word
/// about its job fails here.
@Suite struct ArchitectureDocTests {
    @Test func everyTargetOfBothManifestsIsNamed() throws {
        let root = Fixtures.repositoryRoot
        let page = try String(contentsOf: root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        var targets: [String] = []
        for manifest in ["Server/Package.swift", "Package.swift"] {
            let text = try String(contentsOf: root.appendingPathComponent(manifest), encoding: .utf8)
            targets += text.matches(of: /\.(?:target|executableTarget|testTarget)\(\s*name:\s*"([^"]+)"/).map {
                String($0.output.1)
            }
        }
        #expect(targets.count >= 30, "the manifests' targets were read: \(targets)")
        let unnamed = targets.filter { !page.contains("`\($0)`") }
        #expect(unnamed.isEmpty, "targets docs/architecture.md does not name: \(unnamed)")
    }

    static func read(_ path: String) throws -> String {
        try String(contentsOf: Fixtures.repositoryRoot.appendingPathComponent(path), encoding: .utf8)
    }

    static let document = (try? read("docs/architecture.md")) ?? ""

    @Test("every protocol of Store, and of every store it holds, is named")
    func storeProtocols() throws {
        let source = try Self.read("Server/Sources/StoreKeeperStorage/Store.swift")
        let declaration = try #require(source.range(of: "public protocol Store:"))
        let list = source[declaration.upperBound...].prefix { $0 != "{" }
        // The protocols it is made of, and those of the stores of their own it holds (`var settings: any SettingStore`).
        let names =
            list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            + source.matches(of: /var \w+: any (\w+)/).map { String($0.output.1) }
        #expect(names.count >= 15, "\(names)")
        for name in names { #expect(Self.document.contains("`\(name)`"), "architecture.md names no \(name)") }
    }

    @Test("every room of the router is named")
    func rooms() throws {
        let root = Fixtures.repositoryRoot.appendingPathComponent("Server/Sources/StoreKeeperServer")
        let files = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
        var rooms: [String] = []
        for case let file as URL in files where file.pathExtension == "swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            for line in text.split(separator: "\n") where line.hasPrefix("struct ") && line.contains(": APIFeature") {
                rooms.append(String(line.dropFirst("struct ".count).prefix { $0 != ":" }))
            }
        }
        #expect(rooms.count >= 10, "\(rooms)")
        for room in rooms { #expect(Self.document.contains("`\(room)`"), "architecture.md names no \(room)") }
    }

    @Test("every file the how-tos name exists")
    func howToFiles() throws {
        let section = try #require(Self.document.range(of: "## How to add"))
        let text = Self.document[section.lowerBound...]
        var named: [String] = []
        for piece in text.split(separator: "`").enumerated() where piece.offset % 2 == 1 {
            let path = String(piece.element)
            if path.hasSuffix(".swift") || path.hasSuffix(".json") || path.hasSuffix("/") { named.append(path) }
        }
        #expect(named.count >= 8, "\(named)")
        let server = [
            "Server/Sources/StoreKeeperServer/", "Server/Sources/SubscriptionEngine/",
            "Server/Sources/SubscriptionMetrics/",
        ]
        for path in named where path.contains("/") {
            let found = ([""] + server).contains { base in
                FileManager.default.fileExists(atPath: Fixtures.repositoryRoot.appendingPathComponent(base + path).path)
            }
            #expect(found, "architecture.md names \(path), which does not exist")
        }
    }

    @Test("the subscriber field recipe names exactly the files its example field is spelled in")
    func subscriberFieldRecipe() throws {
        let start = try #require(Self.document.range(of: "**A subscriber field**"))
        let end = try #require(
            Self.document.range(of: "**A metric.**", range: start.upperBound..<Self.document.endIndex))
        let recipe = Self.document[start.lowerBound..<end.lowerBound]
        let pieces = recipe.split(separator: "`").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
        let field = try #require(pieces.first, "the recipe names its example field first")
        let member = Self.camelCase(field)
        let named = Set(pieces.filter { $0.hasSuffix(".swift") && $0.contains("/") })
        #expect(named.count >= 4, "\(named)")
        for path in named {
            let text = try Self.read(path)
            #expect(text.contains(member), "the recipe names \(path), which does not spell \(member)")
        }
        // The answer's side: every file of the API and the server that spells the field is one the recipe names.
        var spelling: Set<String> = []
        for folder in ["Sources/StoreKeeperAPI", "Server/Sources/StoreKeeperServer"] {
            let root = Fixtures.repositoryRoot.appendingPathComponent(folder)
            let files = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
            for case let file as URL in files where file.pathExtension == "swift" {
                let text = try String(contentsOf: file, encoding: .utf8)
                if text.contains(member) || text.contains(field) {
                    spelling.insert(folder + file.path.dropFirst(root.path.count))
                }
            }
        }
        #expect(spelling.count >= 2, "\(spelling)")
        #expect(
            spelling.subtracting(named).isEmpty,
            "files that spell \(field) the recipe leaves out: \(spelling.subtracting(named))")
    }

    /// `grace_period_expires_at` as its Swift member, `gracePeriodExpiresAt`.
    static func camelCase(_ snake: String) -> String {
        let words = snake.split(separator: "_")
        return words.enumerated().map { $0.offset == 0 ? String($0.element) : $0.element.capitalized }.joined()
    }
}
