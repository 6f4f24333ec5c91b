import ArgumentParser
import Foundation
import NIOCore
import NIOHTTP1
import StoreKeeperAPI
import StoreKeeperBench
import StoreKeeperCLI
import StoreKeeperServer
import StoreKeeperStorage

/// `storekeeper-lab memory-bench`: issue 21's memory check. Stores a synthetic population (``SyntheticHistory``; kept,
/// so a rerun on the same database skips it), starts `storekeeper serve` on it as a child process with a cache
/// budget, and reads subscribers over loopback HTTP: the first `--hot` twice (the second pass all from the cache),
/// then every subscriber twice, then the last `--hot` again. Each cached range is read `--repeats` times after the
/// server has been left alone for `--settle` seconds (the database pool's timers from the uncached passes before
/// linger up to 10 s: twice that by default), and the median pass counts. Reports the server's largest resident memory against
/// `--target-megabytes`, and the server CPU of a cached read with `--hot` subscribers seen against with all of
/// them seen (the same when the cache evicts one entry at a time instead of emptying).
struct MemoryBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "memory-bench",
        abstract: "Measure a server's memory and cached reads as it reads every subscriber of a large population.")

    @Option(help: "PostgreSQL URL (default: DATABASE_URL).") var databaseURL: String?
    @Option(help: "Subscribers to store (skipped when the database already holds them) and read.") var subscribers =
        100_000
    @Option(help: "The smaller population cached reads are first measured at.") var hot = 10_000
    @Option(help: "The server's cacheMegabytes.") var cacheMegabytes = 256
    @Option(help: "Cached passes over each --hot range (the median counts).") var repeats = 3
    @Option(help: "Seconds the server is left alone before each range's cached passes.") var settle = 20
    @Option(help: "Concurrent connections.") var concurrency = 16
    @Option(help: "Data folder of the server it starts.") var data = "memory-bench-data"
    @Option(help: "The most resident memory the server may reach, in MiB.") var targetMegabytes = 600
    @Flag(help: "Print the results as JSON.") var json = false

    func validate() throws {
        guard subscribers >= 2 else { throw ValidationError("--subscribers is \(subscribers); it must be at least 2") }
        guard (1...subscribers).contains(hot) else {
            throw ValidationError("--hot is \(hot); it must be from 1 to --subscribers (\(subscribers))")
        }
        guard (1...20).contains(repeats) else { throw ValidationError("--repeats is \(repeats); it must be 1–20") }
        guard (0...600).contains(settle) else { throw ValidationError("--settle is \(settle); it must be 0–600") }
        guard (1...256).contains(concurrency) else {
            throw ValidationError("--concurrency is \(concurrency); it must be 1–256")
        }
    }

    /// What was measured.
    struct Measurement {
        var residentMaxBytes = 0
        var cachedHotNanoseconds = 0.0
        var cachedAllNanoseconds = 0.0
        var uncachedNanoseconds = 0.0
        var failures = 0
        /// A cached read's cost with all seen over with `--hot` seen.
        var ratio: Double { cachedHotNanoseconds > 0 ? cachedAllNanoseconds / cachedHotNanoseconds : 0 }
    }

    func run() async throws {
        guard let url = databaseURL ?? ProcessInfo.processInfo.environment["DATABASE_URL"], !url.isEmpty else {
            throw ValidationError("--database-url (or DATABASE_URL) is required: memory-bench measures PostgreSQL")
        }
        let folder = URL(fileURLWithPath: data)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var configuration = ServerConfiguration()
        configuration.databaseURL = url
        let store = try await StoreOpener.open(configuration)
        let bundleID = ServerConfiguration.demoBundleID
        do {
            _ = try await SyntheticHistory(seed: 42, months: 12, end: Date()).store(
                subscribers, into: store, project: ProjectScope(bundleID), bundleID: bundleID,
                policy: configuration.transferPolicy, concurrency: SyntheticHistory.storingConcurrency,
                command: "memory-bench")
        } catch {
            try? await store.close()
            throw error
        }
        try await store.close()
        let server = try ChildServer.start(
            configuration: ["cacheMegabytes": cacheMegabytes, "databaseURL": url], folder: folder)
        defer { server.stop() }
        let measurement = try await measure(server)
        report(measurement)
        if measurement.failures > 0 || measurement.residentMaxBytes >= targetMegabytes << 20 || measurement.ratio > 1.3
        {
            throw ExitCode(1)
        }
    }

    /// Reads as the command's abstract says, sampling the server's memory after every batch.
    func measure(_ server: ChildServer) async throws -> Measurement {
        var result = Measurement()
        let cpu = ProcessCPU(pid: server.process.processIdentifier)
        /// Reads `range` once in batches; returns the server's CPU nanoseconds per read.
        func read(_ range: Range<Int>, label: String) async throws -> Double {
            let lookups = Self.answerLookups(server)
            let before = cpu.nanoseconds() ?? 0
            var start = range.lowerBound
            while start < range.upperBound {
                let end = min(range.upperBound, start + 10_000)
                result.failures += try await get(start..<end, server: server)
                result.residentMaxBytes = max(result.residentMaxBytes, server.residentBytes ?? 0)
                start = end
            }
            let spent = Double((cpu.nanoseconds() ?? 0) - before) / Double(max(1, range.count))
            let after = Self.answerLookups(server)
            let hits = after.hits - lookups.hits
            let total = hits + after.misses - lookups.misses
            FileHandleOutput.standardError(
                String(
                    format:
                        "memory-bench: %@: %d reads, %.3f ms server CPU each, answers from the cache %.0f %%, resident %d MiB",
                    label as NSString, range.count, spent / 1e6, total > 0 ? Double(hits) / Double(total) * 100 : 0,
                    (server.residentBytes ?? 0) >> 20))
            return spent
        }
        /// The median of `repeats` cached passes over `range`, read after `settle` quiet seconds: on this shared
        /// machine one pass of a few seconds moves by a fifth from the next, and what the passes before left running
        /// in the server (the database pool's timers linger up to a minute) is no part of a cached read's cost at
        /// either population.
        func cached(_ range: Range<Int>, label: String) async throws -> Double {
            if settle > 0 {
                FileHandleOutput.standardError("memory-bench: leaving the server alone for \(settle) s")
                try await Task.sleep(for: .seconds(settle))
            }
            var passes: [Double] = []
            for pass in 1...repeats { passes.append(try await read(range, label: "\(label) (\(pass)/\(repeats))")) }
            return passes.sorted()[passes.count / 2]
        }
        result.uncachedNanoseconds = try await read(0..<hot, label: "first \(hot), first read")
        result.cachedHotNanoseconds = try await cached(0..<hot, label: "first \(hot), again")
        _ = try await read(0..<subscribers, label: "all \(subscribers), first pass")
        _ = try await read(0..<subscribers, label: "all \(subscribers), second pass")
        result.cachedAllNanoseconds = try await cached((subscribers - hot)..<subscribers, label: "last \(hot), again")
        return result
    }

    /// The answer cache's hits and misses so far, from the server's `/metrics`.
    static func answerLookups(_ server: ChildServer) -> (hits: Int, misses: Int) {
        guard let url = URL(string: server.base + "/metrics"), let data = try? Data(contentsOf: url) else {
            return (0, 0)
        }
        var result = (hits: 0, misses: 0)
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n")
        where line.hasPrefix("storekeeper_cache_lookups{") && line.contains(#"cache="answers""#) {
            let value = Int(Double(line.split(separator: " ").last ?? "") ?? 0)
            if line.contains(#"result="hit""#) { result.hits = value } else { result.misses = value }
        }
        return result
    }

    /// GETs each subscriber in `range` once over `concurrency` keep-alive connections.
    /// - Returns: How many failed.
    func get(_ range: Range<Int>, server: ChildServer) async throws -> Int {
        guard let components = URLComponents(string: server.base), let host = components.host,
            let port = components.port
        else { throw CommandFailure("the server's address \(server.base) is not http://host:port") }
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: "\(host):\(port)")
        headers.add(name: "Authorization", value: "Bearer \(ServerConfiguration.demoPublicKey)")
        let source = LoadSource(
            fixed: range.map {
                LoadRequest(
                    method: .GET, path: APIPath.subscriber(SyntheticHistory.customerID($0)), body: nil)
            })
        return try await LoadConnection.run(
            host: host, port: port, count: concurrency, headers: headers, source: source
        ).failures
    }

    func report(_ result: Measurement) {
        let megabytes = result.residentMaxBytes >> 20
        if json {
            let report: [String: Any] = [
                "subscribers": subscribers, "hot": hot, "repeats": repeats, "settle_seconds": settle,
                "cache_megabytes": cacheMegabytes,
                "resident_max_megabytes": megabytes, "target_megabytes": targetMegabytes,
                "uncached_get_cpu_ms": result.uncachedNanoseconds / 1e6,
                "cached_get_cpu_ms_hot": result.cachedHotNanoseconds / 1e6,
                "cached_get_cpu_ms_all": result.cachedAllNanoseconds / 1e6, "cached_ratio": result.ratio,
                "failures": result.failures,
            ]
            if let text = try? JSONSerialization.data(withJSONObject: report, options: [.sortedKeys, .prettyPrinted]) {
                FileHandleOutput.standardOutput(String(decoding: text, as: UTF8.self))
            }
            return
        }
        FileHandleOutput.standardOutput(
            String(
                format:
                    "memory: subscribers=%d cache_megabytes=%d resident_max_megabytes=%d (target < %d) cached_get_cpu_ms %d=%.3f %d=%.3f ratio=%.2f (target <= 1.3) uncached_get_cpu_ms=%.3f failures=%d",
                subscribers, cacheMegabytes, megabytes, targetMegabytes, hot, result.cachedHotNanoseconds / 1e6,
                subscribers, result.cachedAllNanoseconds / 1e6, result.ratio, result.uncachedNanoseconds / 1e6,
                result.failures))
    }
}
