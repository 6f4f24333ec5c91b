import Logging
import ServiceLifecycle

/// How every background service of the server runs: a round of work every `interval` until graceful shutdown,
/// the next round at once while one reports more waiting, and a failed round logged (unless the service is being
/// cancelled) and tried again at the next interval.
struct WorkLoop: Sendable {
    /// The pause between rounds that found nothing more to do.
    let interval: Duration
    /// Where failed rounds are reported.
    let logger: Logger
    /// What a failed round's log line says.
    let failure: Logger.Message

    /// Runs rounds until graceful shutdown or cancellation.
    /// - Parameter round: One round; returns whether more work is waiting (run again without pausing).
    func run(_ round: @Sendable () async throws -> Bool) async {
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            var more = false
            do {
                more = try await round()
            } catch {
                if Task.isCancelled { return }
                logger.error(failure, metadata: ["reason": "\(error)"])
            }
            if !more { try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) } }
        }
    }
}
