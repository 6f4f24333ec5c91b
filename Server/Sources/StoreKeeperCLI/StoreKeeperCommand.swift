public import ArgumentParser

/// `storekeeper`: the root command. Subcommands call library code; nothing here decides anything.
public struct StoreKeeperCommand: AsyncParsableCommand {
    /// The command's name, abstract and subcommands.
    public static let configuration = CommandConfiguration(
        commandName: "storekeeper",
        abstract: "A self-hosted backend for App Store subscriptions.",
        subcommands: [
            ServeCommand.self, MigrateCommand.self, KeysCommand.self, InspectCommand.self, StateCommand.self,
            SimulatorCommand.self, SimulateCommand.self, ImportCommand.self, DemoClientCommand.self,
            RetentionCommand.self, MetricsCommand.self,
        ]
    )

    /// Makes the command (for ArgumentParser).
    public init() {}
}
