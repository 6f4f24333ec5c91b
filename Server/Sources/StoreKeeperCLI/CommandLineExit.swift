public import ArgumentParser

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a root command (`storekeeper`, `storekeeper-lab`) with our exit-code contract: 0 success, 1 the work
/// failed (the reason on stderr), 2 a usage error (ArgumentParser's own would be 64).
public enum CommandLineExit {
    /// Parses the process arguments as `root`'s, runs the command and exits.
    /// - Parameter root: The root command (default: `storekeeper`'s).
    public static func run(_ root: any ParsableCommand.Type = StoreKeeperCommand.self) async -> Never {
        do {
            var command = try root.parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            exit(0)
        } catch {
            let code = root.exitCode(for: error)
            if code == .success {
                print(root.fullMessage(for: error))
                exit(0)
            }
            let message = root.fullMessage(for: error)
            if !message.isEmpty { FileHandleOutput.standardError(message) }
            exit(code == .validationFailure ? 2 : code.rawValue)
        }
    }
}
