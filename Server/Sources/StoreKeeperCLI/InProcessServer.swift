package import Foundation
import Logging
import ServiceLifecycle
package import StoreKeeperServer

/// A server with its in-process simulator as Apple, running in this process (`simulate` and the metrics benchmark
/// drive one over HTTP on loopback).
package struct InProcessServer {
    /// `http://127.0.0.1:<port>`.
    package let base: String
    let group: ServiceGroup
    let task: Task<Void, any Error>
    /// What runs it: the configuration as completed, its store and simulator.
    package let assembly: ServerAssembly

    /// Stops the server and waits until it has.
    package func stop() async {
        await group.triggerGracefulShutdown()
        _ = try? await task.value
        await assembly.close()
    }

    /// Starts a server (with its in-process simulator as Apple) from a validated configuration, in this process.
    /// - Parameters:
    ///   - configuration: The server's configuration (its port a free one).
    ///   - clockStart: Where a manual clock starts.
    package static func start(_ configuration: ServerConfiguration, clockStart: Date?) async throws -> Self {
        var logger = Logger(label: "storekeeper")
        logger.logLevel = .warning
        let running = AsyncStream<Int>.makeStream()
        let assembly = try await ServerAssembly.make(configuration, logger: logger, clockStart: clockStart) { port in
            running.continuation.yield(port)
        }
        let group = ServiceGroup(services: assembly.services, gracefulShutdownSignals: [], logger: logger)
        let task = Task {
            defer { running.continuation.finish() }
            try await group.run()
        }
        var iterator = running.stream.makeAsyncIterator()
        guard let port = await iterator.next() else {
            await assembly.close()
            let reason = await task.result
            throw CommandFailure("the in-process server did not start: \(reason)")
        }
        return Self(base: "http://127.0.0.1:\(port)", group: group, task: task, assembly: assembly)
    }
}
