import Hummingbird
import StoreKeeperAPI

/// The experiments room: the owner's routes to make, start, stop and read experiments (secret key).
struct ExperimentRoutes: APIFeature {
    let experiments: ExperimentService

    func register(_ handlers: inout APIHandlers) {
        handlers.on(.postExperiment) { call in
            let post = try await call.decode(ExperimentPost.self)
            return try call.json(try await experiments.create(post, bundleID: call.bundleID), status: .created)
        }
        handlers.on(.getExperiments) { call in try call.json(try await experiments.list(bundleID: call.bundleID)) }
        handlers.on(.getExperiment) { call in
            try call.json(try await experiments.experiment(try call.parameter(.experimentID), bundleID: call.bundleID))
        }
        handlers.on(.startExperiment) { call in
            _ = try await call.body()
            return try call.json(
                try await experiments.start(try call.parameter(.experimentID), bundleID: call.bundleID))
        }
        handlers.on(.stopExperiment) { call in
            _ = try await call.body()
            return try call.json(try await experiments.stop(try call.parameter(.experimentID), bundleID: call.bundleID))
        }
        handlers.on(.getExperimentResults) { call in
            try call.json(try await experiments.results(try call.parameter(.experimentID), bundleID: call.bundleID))
        }
    }
}
