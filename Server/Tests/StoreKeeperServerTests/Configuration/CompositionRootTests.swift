import Foundation
import TestSupport
import Testing

/// Storage by concern: a service, a job or a tool depends on the narrow store protocols it uses
/// (`any EvidenceStore`, `any WebhookStore & EvidenceStore`…); only the composition roots, which open the store
/// and hand each part its share, hold a whole `any Store`.
@Suite struct CompositionRootTests {
    static let roots: Set<String> = ["ServerAssembly.swift", "StoreKeeperApplication.swift"]

    @Test func onlyTheCompositionRootsHoldAWholeStore() throws {
        let sources = Fixtures.repositoryRoot.appendingPathComponent("Server/Sources")
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        var holders: [String] = []
        var read = 0
        for case let file as URL in files where file.pathExtension == "swift" {
            read += 1
            let text = try String(contentsOf: file, encoding: .utf8)
            let code = text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
            let holds = code.contains { $0.contains(/\bany Store\b(?!\w)/) }
            if holds, !Self.roots.contains(file.lastPathComponent) { holders.append(file.lastPathComponent) }
        }
        #expect(read > 300, "the sources were read")
        #expect(holders.isEmpty, "a whole Store outside the composition roots: \(holders)")
    }
}
