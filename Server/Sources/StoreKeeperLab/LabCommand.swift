public import ArgumentParser

/// `storekeeper-lab`: the measurement tools the checks in scripts/ run (benchmarks, load, webhook delivery,
/// metrics, growth and memory). They live apart from `storekeeper`, which users deploy; the tools that start a
/// server run the `storekeeper` binary built beside this one.
public struct LabCommand: AsyncParsableCommand {
    /// The command's name, abstract and subcommands.
    public static let configuration = CommandConfiguration(
        commandName: "storekeeper-lab",
        abstract: "StoreKeeper's measurement tools: benchmarks and load, growth and memory checks.",
        subcommands: [
            BenchCommand.self, LoadCommand.self, WebhookBenchCommand.self, MetricsBenchCommand.self,
            ScaleBenchCommand.self, MemoryBenchCommand.self,
        ]
    )

    /// Makes the command (for ArgumentParser).
    public init() {}
}
