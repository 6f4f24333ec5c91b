import Foundation
import Logging
import ServiceLifecycle
import StoreKeeperStorage

/// Builds the metric rollups of every project whose rollups are not whole (a database from before them, rules
/// changed, a time without them) once the server listens, logging its progress; metric queries read the
/// timelines until a project's are built. Then it is done: every write keeps them.
struct MetricRollupBuilder: Service {
    let store: any Store
    let projects: [ProjectScope]
    let logger: Logger

    func run() async throws {
        guard store.keepsRollups else { return }
        let clock = ContinuousClock()
        for project in projects {
            guard try await !store.rollupsReady(in: project) else { continue }
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
}
