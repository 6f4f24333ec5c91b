import ArgumentParser
import Foundation
import Logging

/// `--log-level` and `--log-format`: how `serve` reports what it does, on standard error.
struct LogOptions: ParsableArguments {
    @Option(help: "The least severe level logged: trace, debug, info, notice, warning, error or critical.")
    var logLevel = "info"

    @Option(help: "text (one readable line per event) or json (one JSON object per line).")
    var logFormat = "text"

    func validate() throws {
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError(
                "--log-level \"\(logLevel)\" is not one of trace, debug, info, notice, warning, error, critical")
        }
        guard ["text", "json"].contains(logFormat) else {
            throw ValidationError("--log-format \"\(logFormat)\" is not text or json")
        }
    }

    /// Sends every logger of the process to standard error in the chosen format (once per process), and
    /// returns the server's logger at the chosen level.
    func bootstrap() -> Logger {
        let level = Logger.Level(rawValue: logLevel) ?? .info
        let json = logFormat == "json"
        LoggingSystem.bootstrap { label in
            var handler: any LogHandler =
                json ? JSONLogHandler(label: label) : StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        var logger = Logger(label: "storekeeper")
        logger.logLevel = level
        return logger
    }
}
