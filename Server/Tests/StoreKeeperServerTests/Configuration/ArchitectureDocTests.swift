import Foundation
import TestSupport
import Testing

/// docs/architecture.md names every target of both manifests (the server's package in `Server/` and the SDK's at the repository root), so a module
/// added without a word about its job fails here.
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
}
