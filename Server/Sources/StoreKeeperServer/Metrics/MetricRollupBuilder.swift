import Foundation
import Logging
import ServiceLifecycle
import StoreKeeperStorage

/// Builds the metric rollups of every project whose rollups are not whole (a database from before them, rules
/// changed, a time without them) once the server listens, logging its progress; metric queries read the
/// timelines until a project's are built. Then it is done: every write keeps them.
struct MetricRollupBuilder: Service {
    let store: any RollupStore
    let projects: [ProjectScope]
    let logger: Logger

    /// How long to wait before trying a project again after a failure (the database away).
    var retry: Duration = .seconds(30)

    func run() async throws {
        guard store.keepsRollups else { return }
        var pending = projects
        while !pending.isEmpty {
            var failed: [ProjectScope] = []
            for project in pending {
                do {
                    try await build(project)
                } catch is CancellationError {
                    return
                } catch {
                    // Never the server's end: the timelines answer meanwhile, and the build is tried again.
                    logger.warning(
                        "metric rollups not built; trying again",
                        metadata: ["project": "\(project.id)", "error": "\(error)"])
                    failed.append(project)
                }
            }
            pending = failed
            guard !pending.isEmpty else { return }
            guard (try? await cancelWhenGracefulShutdown({ try await Task.sleep(for: retry) })) != nil else { return }
        }
    }

    /// Builds one project's rollups unless they are whole.
    func build(_ project: ProjectScope) async throws {
        guard try await !store.rollupsReady(in: project) else { return }
        let clock = ContinuousClock()
        let began = clock.now
        logger.info("building metric rollups", metadata: ["project": "\(project.id)"])
        let logger = logger
        let counted = try await cancelWhenGracefulShutdown {
            try await store.rebuildRollups(in: project) { done in
                if done % 10_000 == 0 {
                    logger.info(
                        "building metric rollups", metadata: ["project": "\(project.id)", "subscribers": "\(done)"])
                }
            }
        }
        logger.info(
            "metric rollups built",
            metadata: [
                "project": "\(project.id)", "subscribers": "\(counted)",
                "seconds": "\(String(format: "%.2f", (clock.now - began) / .seconds(1)))",
            ])
    }
}
