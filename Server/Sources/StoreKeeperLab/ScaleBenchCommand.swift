import AppStoreSimulator
import ArgumentParser
import AsyncHTTPClient
import Foundation
import StoreKeeperAPI
import StoreKeeperBench
import StoreKeeperCLI
import StoreKeeperPostgres
import StoreKeeperServer
import StoreKeeperStorage
import SubscriptionMetrics

/// `storekeeper-lab scale-bench`: issue 21's check that costs do not grow with history. Starts `storekeeper serve`
/// as a child process on a PostgreSQL database with its caches off, gives two groups of subscribers 1 and
/// `--max-renewals` daily renewals (signed V2 notifications, as Apple sends them), then measures, interleaved in
/// rounds, each group's uncached `GET /v1/subscribers/{id}` and one-notification ingest in the server's own CPU
/// time, the WAL written and the bytes left stored per notification (tables and indexes, compacted by
/// `VACUUM FULL` before and after, so dead row versions do not count). Ends with one line:
/// `growth: get=<ratio> ingest=<ratio> wal=<ratio> stored_bytes_per_notification=<n>`.
struct ScaleBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scale-bench",
        abstract: "Measure how read and write costs grow with a subscriber's renewal history (PostgreSQL).")

    @Option(help: "PostgreSQL URL of an empty database (default: DATABASE_URL).") var databaseURL: String?
    @Option(help: "Renewals of the long-history group (the other group has 1).") var maxRenewals = 240
    @Option(help: "Subscribers in each group.") var subscribers = 8
    @Option(help: "Measurement rounds (each measures both groups, in alternating order).") var rounds = 6
    @Option(help: "Data folder of the server it starts (its simulator's keys, its log).") var data =
        "scale-bench-data"
    @Flag(help: "Print the results as JSON.") var json = false
    @Flag(inversion: .prefixedNo, help: "Keep metric rollups (configuration metricRollups) in the server it starts.")
    var rollups = true

    static let bundleID = ServerConfiguration.demoBundleID
    static let productID = "premium.monthly"

    func validate() throws {
        guard maxRenewals >= 2 else { throw ValidationError("--max-renewals is \(maxRenewals); it must be at least 2") }
        guard (1...256).contains(subscribers) else {
            throw ValidationError("--subscribers is \(subscribers); it must be 1–256")
        }
        guard (2...100).contains(rounds) else { throw ValidationError("--rounds is \(rounds); it must be 2–100") }
    }

    /// What one group cost, per request, in each round.
    struct GroupCosts {
        var renewals: Int
        var getNanoseconds: [Double] = []
        var ingestNanoseconds: [Double] = []
        var walBytes: [Double] = []
        var storedBytes = 0.0
        /// What each table (with its indexes and TOAST) grew by over the group's notifications.
        var storedByTable: [String: Double] = [:]
        var notifications = 0

        static func median(_ values: [Double]) -> Double {
            let sorted = values.sorted()
            guard !sorted.isEmpty else { return 0 }
            return sorted.count % 2 == 1
                ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        }
        var get: Double { Self.median(getNanoseconds) }
        var ingest: Double { Self.median(ingestNanoseconds) }
        var wal: Double { Self.median(walBytes) }
        var storedPerNotification: Double { notifications == 0 ? 0 : storedBytes / Double(notifications) }
    }

    func run() async throws {
        guard let url = databaseURL ?? ProcessInfo.processInfo.environment["DATABASE_URL"], !url.isEmpty else {
            throw ValidationError("--database-url (or DATABASE_URL) is required: scale-bench measures PostgreSQL")
        }
        let folder = URL(fileURLWithPath: data)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // Caches off: every read and write goes to the database.
        let server = try ChildServer.start(
            configuration: ["cacheMegabytes": 0, "databaseURL": url, "metricRollups": rollups], folder: folder)
        defer { server.stop() }
        let database = try PostgresStoreDatabase.connect(url: url)
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        let result: Result<[GroupCosts], any Error>
        do {
            result = .success(try await measure(server: server, database: database, client: client, folder: folder))
        } catch {
            result = .failure(error)
        }
        try? await client.shutdown()
        try? await database.close()
        report(try result.get())
    }

    /// Seeds both groups, then measures them in rounds.
    func measure(server: ChildServer, database: PostgresStoreDatabase, client: HTTPClient, folder: URL) async throws
        -> [GroupCosts]
    {
        let caller = JSONCaller(base: server.base, client: client, bearer: ServerConfiguration.demoPublicKey)
        let pki = try SimulatorPKI.loadOrCreate(in: folder.appendingPathComponent("server/simulator/pki"))
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let groups = [1, maxRenewals]
        // Every period a round posts is bought by now (the last one runs past now): a renewal the server's clock
        // has not reached yet is evidence about the future, kept apart until then, and would grow the rows.
        let signers = groups.map { renewals in
            RenewalHistorySigner(
                pki: pki, bundleID: Self.bundleID, productID: Self.productID,
                start: now - Int64(renewals + rounds) * RenewalHistorySigner.day - RenewalHistorySigner.day / 2)
        }
        var members: [[(user: String, original: String)]] = groups.map { renewals in
            (0..<subscribers).map { ("scale-r\(renewals)-\($0)", "\(7_000_000_000_000 + renewals * 1_000 + $0)") }
        }
        var next: [String: Int] = [:]
        let progress = ProgressLine(label: "seeding", unit: "subscribers", total: groups.count * subscribers)
        for (group, renewals) in groups.enumerated() {
            let signer = signers[group]
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                for member in members[group] {
                    tasks.addTask {
                        try await caller.call(
                            "POST", APIPath.transactions,
                            [
                                "app_user_id": member.user,
                                "signed_transaction": try signer.transaction(original: member.original, period: 0),
                            ])
                        for period in 1...renewals {
                            try await post(
                                try signer.renewal(original: member.original, period: period), caller: caller)
                        }
                    }
                }
                for try await _ in tasks { progress.advance() }
            }
            for member in members[group] { next[member.original] = renewals + 1 }
        }
        progress.finish()
        members = members.map { $0.sorted { $0.user < $1.user } }
        let cpu = ProcessCPU(pid: server.process.processIdentifier)
        let sweeper = SQLStore(database: database, groupCommit: .off, rollupRules: ProceedsRules())
        var costs = groups.map { GroupCosts(renewals: $0) }
        for round in 0..<rounds {
            FileHandleOutput.standardError("scale-bench: round \(round + 1)/\(rounds)")
            let order = round % 2 == 0 ? Array(groups.indices) : groups.indices.reversed()
            for group in order {
                // One notification per subscriber: a renewal one period later than its last.
                let bodies = try members[group].map { member -> Data in
                    defer { next[member.original, default: 0] += 1 }
                    return try signers[group].renewal(original: member.original, period: next[member.original] ?? 1)
                }
                // Stored bytes are what the notifications left live: measured with every table rewritten compactly
                // (VACUUM FULL) before and after, so dead row versions a vacuum would reuse do not count, and with
                // the rollup rows the writes brought to 0 swept as the server's hourly sweep does.
                try await sweep(sweeper)
                _ = try await database.read("VACUUM FULL", [])
                let before = try await sample(database, cpu)
                for body in bodies { try await post(body, caller: caller) }
                var after = try await sample(database, cpu)
                try await sweep(sweeper)
                _ = try await database.read("VACUUM FULL", [])
                let compacted = try await sample(database, cpu)
                after.stored = compacted.stored
                after.tables = compacted.tables
                let count = Double(bodies.count)
                costs[group].ingestNanoseconds.append(Double(after.cpu - before.cpu) / count)
                costs[group].walBytes.append(Double(after.wal - before.wal) / count)
                costs[group].storedBytes += Double(after.stored - before.stored)
                for (table, bytes) in after.tables {
                    costs[group].storedByTable[table, default: 0] += Double(bytes - (before.tables[table] ?? 0))
                }
                costs[group].notifications += bodies.count
                // Three reads of each subscriber: every one from the database (caches off).
                let readsBefore = cpu.nanoseconds() ?? 0
                for _ in 0..<3 {
                    for member in members[group] { try await caller.call("GET", APIPath.subscriber(member.user)) }
                }
                let readsAfter = cpu.nanoseconds() ?? 0
                costs[group].getNanoseconds.append(Double(readsAfter - readsBefore) / Double(3 * members[group].count))
            }
        }
        return costs
    }

    /// Deletes every rollup row at 0 (``SQLStore/sweepRollups(limit:)``, what the server runs every hour).
    func sweep(_ store: SQLStore) async throws {
        guard rollups else { return }
        while try await store.sweepRollups(limit: 10_000) == 10_000 {}
    }

    /// Posts one notification and checks it was applied.
    func post(_ body: Data, caller: JSONCaller) async throws {
        guard let object = try JSONSerialization.jsonObject(with: body) as? [String: Any] else { return }
        try await caller.call("POST", APIPath.notifications, object)
    }

    /// The server's CPU time, the WAL position and the database's size.
    func sample(_ database: PostgresStoreDatabase, _ cpu: ProcessCPU) async throws -> (
        cpu: UInt64, wal: Int64, stored: Int64, tables: [String: Int64]
    ) {
        let rows = try await database.read(
            "SELECT (pg_current_wal_lsn() - '0/0'::pg_lsn)::bigint AS wal, "
                + "(SELECT COALESCE(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c "
                + "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind = 'r')::bigint "
                + "AS stored", [])
        guard let row = rows.first, let wal = row["wal"]?.int, let stored = row["stored"]?.int,
            let nanoseconds = cpu.nanoseconds()
        else { throw CommandFailure("could not read the server's CPU time or the database's WAL position") }
        let tables = try await database.read(
            "SELECT c.relname AS name, pg_total_relation_size(c.oid)::bigint AS bytes FROM pg_class c "
                + "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind = 'r'", [])
        var sizes: [String: Int64] = [:]
        for table in tables {
            if let name = table["name"]?.string, let bytes = table["bytes"]?.int { sizes[name] = bytes }
        }
        return (nanoseconds, wal, stored, sizes)
    }

    func report(_ costs: [GroupCosts]) {
        guard let light = costs.first, let heavy = costs.last else { return }
        func ratio(_ value: (GroupCosts) -> Double) -> Double { value(light) > 0 ? value(heavy) / value(light) : 0 }
        let growth = (get: ratio(\.get), ingest: ratio(\.ingest), wal: ratio(\.wal))
        // A subscriber's row grows over its first renewals (until the first fold) and not after: the long history
        // is the steady state every subscriber reaches, so its figure is the one reported.
        let stored = Int(heavy.storedPerNotification.rounded())
        if json {
            let groups = costs.map { group -> [String: Any] in
                [
                    "renewals": group.renewals, "get_cpu_ms": group.get / 1e6, "ingest_cpu_ms": group.ingest / 1e6,
                    "wal_bytes_per_notification": group.wal,
                    "stored_bytes_per_notification": group.storedPerNotification,
                    "stored_bytes_per_notification_by_table": group.storedByTable.mapValues {
                        $0 / Double(max(1, group.notifications))
                    },
                ]
            }
            let report: [String: Any] = [
                "groups": groups,
                "growth": [
                    "get": growth.get, "ingest": growth.ingest, "wal": growth.wal,
                    "stored_bytes_per_notification": stored,
                ],
            ]
            if let text = try? JSONSerialization.data(withJSONObject: report, options: [.sortedKeys, .prettyPrinted]) {
                FileHandleOutput.standardOutput(String(decoding: text, as: UTF8.self))
            }
            return
        }
        FileHandleOutput.standardOutput(
            "renewals  GET server CPU  ingest server CPU  WAL/notification  stored/notification  (medians of \(rounds) rounds)"
        )
        for group in costs {
            FileHandleOutput.standardOutput(
                String(
                    format: "%8d  %9.2f ms  %14.2f ms  %11.0f bytes  %14.0f bytes", group.renewals, group.get / 1e6,
                    group.ingest / 1e6, group.wal, group.storedPerNotification))
        }
        for group in costs {
            let parts = group.storedByTable.filter { $0.value != 0 }.sorted { $0.value > $1.value }.map {
                String(format: "%@ %.0f", $0.key, $0.value / Double(max(1, group.notifications)))
            }
            FileHandleOutput.standardOutput(
                "stored per notification (\(group.renewals) renewals), by table: " + parts.joined(separator: ", "))
        }
        FileHandleOutput.standardOutput(
            String(
                format: "growth: get=%.2f ingest=%.2f wal=%.2f stored_bytes_per_notification=%d", growth.get,
                growth.ingest, growth.wal, stored))
    }
}
