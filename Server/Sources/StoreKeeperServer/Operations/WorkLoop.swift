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
    /// How long to wait before the first round (a starting server answers first), never more than `interval`.
    var firstRound: Duration = .zero

    /// The longest pause after failed rounds.
    static let longestPause = Duration.seconds(30)

    /// Runs rounds until graceful shutdown or cancellation.
    /// - Parameter round: One round; returns whether more work is waiting (run again without pausing).
    func run(_ round: @Sendable () async throws -> Bool) async {
        let first = min(firstRound, interval)
        if first > .zero {
            guard (try? await cancelWhenGracefulShutdown({ try await Task.sleep(for: first) })) != nil else { return }
        }
        var failures = Failures()
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            var more = false
            do {
                more = try await round()
                failures.succeeded()
            } catch {
                if Task.isCancelled { return }
                failures.failed(error, logger: logger, message: failure)
            }
            if !more || failures.count > 0 {
                let pause = failures.pause(interval: interval)
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

    /// The one rule for a background loop's failed rounds: a database outage is not logged (the database
    /// reports it once) and lengthens the pause with each round in a row it fails; any other failure is logged
    /// and the loop goes on at its interval.
    struct Failures {
        /// Rounds in a row the database's absence failed.
        private(set) var count = 0

        /// A round worked.
        mutating func succeeded() { count = 0 }

        /// A round failed with `error`.
        mutating func failed(
            _ error: any Error, logger: Logger, message: Logger.Message, metadata: Logger.Metadata = [:]
        ) {
            if error is DatabaseUnavailable {
                count += 1
            } else {
                count = 0
                Self.report(error, logger: logger, message: message, metadata: metadata)
            }
        }

        /// The pause before the next round.
        func pause(interval: Duration) -> Duration { WorkLoop.pause(after: count, interval: interval) }

        /// Logs `error` unless it is a database outage (which the database reports, once).
        static func report(
            _ error: any Error, logger: Logger, message: Logger.Message, metadata: Logger.Metadata = [:]
        ) {
            guard !(error is DatabaseUnavailable) else { return }
            logger.error(message, metadata: metadata.merging(["reason": "\(error)"]) { $1 })
        }
    }
}
