import Logging
import ServiceLifecycle
import StoreKeeperStorage

/// How every background service of the server runs: a round of work every `interval` until graceful shutdown,
/// the next round at once while one reports more waiting, and a failed round logged (unless the service is being
/// cancelled) and tried again after the interval. A round that failed because the database is unavailable is not
/// logged here (the database reports an outage once), and the pause doubles with each such failure in a row, up to
/// ``longestPause``.
struct WorkLoop: Sendable {
    /// The pause between rounds that found nothing more to do.
    let interval: Duration
    /// Where failed rounds are reported.
    let logger: Logger
    /// What a failed round's log line says.
    let failure: Logger.Message

    /// The longest pause after failed rounds.
    static let longestPause = Duration.seconds(30)

    /// Runs rounds until graceful shutdown or cancellation.
    /// - Parameter round: One round; returns whether more work is waiting (run again without pausing).
    func run(_ round: @Sendable () async throws -> Bool) async {
        var failures = 0
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            var more = false
            do {
                more = try await round()
                failures = 0
            } catch is DatabaseUnavailable {
                // The database reports its outage, once; the loop only waits longer each time.
                if Task.isCancelled { return }
                failures += 1
            } catch {
                if Task.isCancelled { return }
                failures = 0
                logger.error(failure, metadata: ["reason": "\(error)"])
            }
            if !more || failures > 0 {
                let pause = Self.pause(after: failures, interval: interval)
                try? await cancelWhenGracefulShutdown { try await Task.sleep(for: pause) }
            }
        }
    }

    /// The pause before the next round: `interval`, doubled for each failure in a row, at most ``longestPause``
    /// (never shorter than `interval`).
    static func pause(after failures: Int, interval: Duration) -> Duration {
        guard failures > 0 else { return interval }
        let doubled = interval * (1 << min(failures, 16))
        return max(interval, min(doubled, longestPause))
    }
}
