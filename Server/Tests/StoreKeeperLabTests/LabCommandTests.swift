import Foundation
import TestSupport
import Testing

/// The measurement tools are their own executable: `storekeeper --help` lists only what users run, and
/// `storekeeper-lab --help` lists the tools.
@Suite struct LabCommandTests {
    /// The subcommands a help text lists (the names indented two spaces under SUBCOMMANDS; a wrapped abstract is
    /// indented further).
    static func subcommands(in help: String) -> Set<String> {
        let lines = help.components(separatedBy: "\n")
        guard let start = lines.firstIndex(where: { $0.hasPrefix("SUBCOMMANDS:") }) else { return [] }
        var names: Set<String> = []
        for line in lines[(start + 1)...] {
            guard !line.isEmpty else { break }
            guard line.hasPrefix("  "), line.dropFirst(2).first != " " else { continue }
            if let name = line.split(separator: " ").first { names.insert(String(name)) }
        }
        return names
    }

    static let userCommands: Set<String> = [
        "serve", "migrate", "keys", "inspect", "state", "simulator", "simulate", "import", "demo-client", "retention",
        "metrics",
    ]
    static let labCommands: Set<String> = [
        "bench", "load", "webhook-bench", "metrics-bench", "scale-bench", "memory-bench",
    ]

    @Test("storekeeper --help lists exactly the user commands, none of the measurement tools")
    func userHelp() async throws {
        let help = try await CommandRunner.run(["--help"])
        #expect(help.status == 0)
        #expect(Self.subcommands(in: help.standardOutput) == Self.userCommands, "\(help.standardOutput)")
        for tool in Self.labCommands {
            let run = try await CommandRunner.run([tool])
            #expect(
                run.status == 2 && run.standardError.contains("Unexpected argument '\(tool)'"), "storekeeper \(tool)")
        }
    }

    @Test("storekeeper-lab --help lists exactly the measurement tools")
    func labHelp() async throws {
        let help = try await CommandRunner.run(["--help"], program: CommandRunner.lab)
        #expect(help.status == 0)
        #expect(Self.subcommands(in: help.standardOutput) == Self.labCommands, "\(help.standardOutput)")
    }
}
