import Foundation
import Logging
import ServiceLifecycle
import StoreKeeperStorage

/// Builds every project's kept metric timelines once the server listens, so the first dashboard visit after a
/// start does not pay for reading the whole project (seconds at 100,000 subscribers). Then it is done; later
/// queries keep the timelines fresh themselves. Not with metric rollups, which answer instead.
struct MetricTimelineWarmer: Service {
    let metrics: MetricService
    let logger: Logger

    func run() async throws {
        // With rollups, metrics read no timelines once the rollups are whole: keeping them all would only cost
        // memory (a query before then builds them itself).
        guard !metrics.store.keepsRollups else { return }
        let projects = metrics.apps.projects
        let clock = ContinuousClock()
        for project in projects {
            let began = clock.now
            let built = try? await cancelWhenGracefulShutdown {
                try await metrics.timelineCache.timelines(in: project, store: metrics.store)
            }
            guard let built = built ?? nil else {
                if metrics.timelineCache.isOversized(project) {
                    logger.warning(
                        "metric timelines do not fit the cache: each metric query reads the whole project",
                        metadata: [
                            "project": "\(project.id)",
                            "share_megabytes": "\(metrics.timelineCache.budget >> 20)",
                            "advice": "raise cacheMegabytes (the timelines get an eighth of it)",
                        ])
                }
                continue
            }
            logger.info(
                "metric timelines kept",
                metadata: [
                    "project": "\(project.id)", "subscribers": "\(built.count)",
                    "seconds": "\(String(format: "%.2f", (clock.now - began) / .seconds(1)))",
                ])
        }
    }
}
