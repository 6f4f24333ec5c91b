import ArgumentParser

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs `storekeeper` with our exit-code contract: 0 success, 1 the work failed (the reason on stderr),
/// 2 a usage error (ArgumentParser's own would be 64).
public enum CommandLineExit {
    /// Parses the process arguments, runs the command and exits.
    public static func run() async -> Never {
        do {
            var command = try StoreKeeperCommand.parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            exit(0)
        } catch {
            let code = StoreKeeperCommand.exitCode(for: error)
            if code == .success {
                print(StoreKeeperCommand.fullMessage(for: error))
                exit(0)
            }
            let message = StoreKeeperCommand.fullMessage(for: error)
            if !message.isEmpty { FileHandleOutput.standardError(message) }
            exit(code == .validationFailure ? 2 : code.rawValue)
        }
    }
}
