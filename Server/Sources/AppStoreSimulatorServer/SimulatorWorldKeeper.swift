public import AppStoreSimulator
import Foundation
public import Logging
public import ServiceLifecycle

/// Saves the simulator's world while it runs — every `interval` when it changed, and once more at graceful
/// shutdown — so a restart continues the same world. (Killed between saves, a simulator loses at most the last
/// `interval` of its world, and still never hands out an id twice: see ``AppStoreSimulator/restore(_:)``.)
public struct SimulatorWorldKeeper: Service {
    let simulator: AppStoreSimulator
    let file: SimulatorWorldFile
    let interval: Duration
    let logger: Logger

    /// Makes the service.
    /// - Parameters:
    ///   - simulator: The simulator.
    ///   - file: Where its world is saved.
    ///   - interval: How often to look for changes.
    ///   - logger: Where a failed save is reported (the next round tries again).
    public init(
        simulator: AppStoreSimulator, file: SimulatorWorldFile, interval: Duration = .seconds(2), logger: Logger
    ) {
        self.simulator = simulator
        self.file = file
        self.interval = interval
        self.logger = logger
    }

    /// Runs until graceful shutdown, then saves the world a last time. A world that takes long to save (a large
    /// population) is saved less often: the pause after a save is at least nine times what it took, so saving
    /// never takes more than a tenth of the time.
    public func run() async throws {
        var saved: [UInt64]?
        let clock = ContinuousClock()
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            let took = await clock.measure { saved = await save(unless: saved) }
            let pause = max(interval, took * 9)
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: pause) }
        }
        _ = await save(unless: nil)
    }

    /// Saves the world unless its change mark is `unless`.
    /// - Returns: The mark of what is saved now (`unless` again when saving failed).
    func save(unless previous: [UInt64]?) async -> [UInt64]? {
        let mark = await simulator.changeMark()
        guard mark != previous else { return previous }
        let world = await simulator.world()
        do {
            try file.save(world)
            return mark
        } catch {
            logger.error("\(error)")
            return previous
        }
    }
}
