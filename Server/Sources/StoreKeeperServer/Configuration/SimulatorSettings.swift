import Foundation

/// The in-process App Store simulator `storekeeper serve` runs as Apple: whether it runs, and its environment,
/// clock and pace. The server itself only asks whether it runs (demo mode); the composition root (`serve`)
/// starts it from the rest. In the file these are top-level keys (`simulator`, `simulatorEnvironment`,
/// `simulatorClock`, `simulatorRate`).
public struct SimulatorSettings: Sendable {
    /// The environment of the evidence the simulator makes.
    public enum Environment: String, ConfigurationChoice {
        /// Sandbox receipts and transactions (the default).
        case sandbox = "Sandbox"
        /// Production-shaped evidence: receipts of type `Production`, verifyReceipt answering at the production URL.
        case production = "Production"
    }

    /// What moves the simulator's time.
    public enum Clock: String, ConfigurationChoice {
        /// Real time, with periods accelerated by the rate (the default).
        case system
        /// Moved only by `POST /simulator/v1/clock/advance`; the server runs on it too, so engine, workers,
        /// schedules and webhook retries move with it.
        case manual
    }

    /// How long a sandbox month lasts.
    public enum Rate: String, ConfigurationChoice {
        /// Three minutes.
        case threeMinutes = "3m"
        /// Five minutes (the default).
        case fiveMinutes = "5m"
        /// Fifteen minutes.
        case fifteenMinutes = "15m"
        /// Thirty minutes.
        case thirtyMinutes = "30m"
        /// An hour.
        case hour = "1h"
        /// Real time: a month is a month.
        case real
    }

    /// Run the simulator in-process and use it as Apple (`simulator`). Default: when no apps are configured.
    public var enabled: Bool?
    /// The evidence's environment (`simulatorEnvironment`). Default `Sandbox`.
    public var environment = Environment.sandbox
    /// What moves time (`simulatorClock`). Default `system`.
    public var clock = Clock.system
    /// How long a sandbox month lasts (`simulatorRate`). Default `5m`.
    public var rate = Rate.fiveMinutes

    /// The defaults.
    public init() {}
}
