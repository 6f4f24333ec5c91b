public import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A PostgreSQL server of one test's own, in a temporary folder on a free loopback port, that the test may stop
/// and start (the shared test server must not be stopped under the other tests). Needs Debian's `postgresql`
/// binaries, which `scripts/postgres-up` installs; as root it runs the server as the `postgres` user.
public final class ThrowawayPostgres: Sendable {
    /// `postgres://postgres@127.0.0.1:PORT/postgres`.
    public let url: String
    let directory: String
    let binaries: String
    let port: Int

    /// Makes and starts a server (on a thread of its own: ``Blocking``), or returns `nil` when PostgreSQL's
    /// binaries are not installed.
    public static func start() async throws -> ThrowawayPostgres? {
        try await Blocking.run { try made() }
    }

    static func made() throws -> ThrowawayPostgres? {
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        guard
            let version = versions.filter({ FileManager.default.fileExists(atPath: "\(root)/\($0)/bin/pg_ctl") })
                .max(by: { (Int($0) ?? 0) < (Int($1) ?? 0) })
        else { return nil }
        let server = ThrowawayPostgres(binaries: "\(root)/\(version)/bin", port: try Self.freePort())
        try server.run("initdb", "-D", server.directory, "-U", "postgres", "--auth=trust")
        try server.startAndWait()
        return server
    }

    init(binaries: String, port: Int) {
        self.binaries = binaries
        self.port = port
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("pg-\(UUID().uuidString)").path
        url = "postgres://postgres@127.0.0.1:\(port)/postgres"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        if getuid() == 0 { _ = try? Self.command("/bin/chown", ["postgres:postgres", directory]) }
    }

    /// Starts the server and waits until it accepts connections.
    public func start() async throws {
        try await Blocking.run { try self.startAndWait() }
    }

    func startAndWait() throws {
        try run(
            "pg_ctl", "-D", directory, "-l", directory + "/server.log", "-w", "-o",
            "-p \(port) -k /tmp -c listen_addresses=127.0.0.1", "start")
    }

    /// Stops the server at once, as a crash or `pg_ctl stop -m immediate` does: open connections are cut.
    public func stopImmediately() async throws {
        try await Blocking.run { try self.run("pg_ctl", "-D", self.directory, "-m", "immediate", "-w", "stop") }
    }

    /// Stops the server and removes its folder.
    public func destroy() {
        _ = try? run("pg_ctl", "-D", directory, "-m", "immediate", "-w", "stop")
        try? FileManager.default.removeItem(atPath: directory)
    }

    func run(_ tool: String, _ arguments: String...) throws {
        let path = "\(binaries)/\(tool)"
        if getuid() == 0 {
            try Self.command("/usr/sbin/runuser", ["-u", "postgres", "--", path] + arguments)
        } else {
            try Self.command(path, arguments)
        }
    }

    /// Runs a program and waits for it with `waitpid`. Not with Foundation's `Process`: it learns that a child
    /// ended when a socket the child holds closes, and the server `pg_ctl` starts inherits that socket, so `start`
    /// would wait for the server to stop.
    static func command(_ path: String, _ arguments: [String]) throws {
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor: Int32 in [1, 2] {
            posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", O_WRONLY, 0)
        }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .ENOENT) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        guard status == 0 else {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "\(path) exited with \(status)"])
        }
    }

    /// A loopback port nothing listens on now.
    static func freePort() throws -> Int {
        let reserved = try ReservedPort()
        defer { reserved.release() }
        return reserved.port
    }
}
