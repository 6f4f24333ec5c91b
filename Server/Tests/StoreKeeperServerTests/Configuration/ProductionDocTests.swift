import Foundation
import TestSupport
import Testing

@testable import StoreKeeperServer

/// docs/production.md's configuration snippets are real: every `json` block is read by the server's strict
/// configuration reader (a fragment such as `"limits": {…}` as the one key of a file) and validates.
@Suite struct ProductionDocTests {
    static func jsonBlocks(_ markdown: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```json" {
                current = []
            } else if current != nil, line == "```" {
                blocks.append(current!.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    @Test("every json block of docs/production.md is a configuration the server reads and accepts")
    func snippets() throws {
        let markdown = try String(
            contentsOf: Fixtures.repositoryRoot.appendingPathComponent("docs/production.md"), encoding: .utf8)
        let blocks = Self.jsonBlocks(markdown)
        #expect(blocks.count >= 3)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("doc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for (index, block) in blocks.enumerated() {
            let trimmed = block.trimmingCharacters(in: .whitespacesAndNewlines)
            let file = directory.appendingPathComponent("snippet-\(index).json")
            try (trimmed.hasPrefix("{") ? trimmed : "{\(trimmed)}").write(to: file, atomically: true, encoding: .utf8)
            do {
                let configuration = try ServerConfiguration.load(path: file.path, environment: [:])
                try configuration.validate()
            } catch {
                Issue.record("docs/production.md json block \(index + 1) is refused: \(error)\n\(trimmed)")
            }
        }
    }
}
