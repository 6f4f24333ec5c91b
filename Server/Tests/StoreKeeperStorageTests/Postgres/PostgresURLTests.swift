import Foundation
import Logging
import PostgresNIO
import StoreKeeperPostgres
import StoreKeeperStorage
import TestDatabaseSupport
import TestSupport
import Testing

/// `DATABASE_URL` as libpq reads it, TLS included: every managed PostgreSQL needs `sslmode=require` or better.
@Suite struct PostgresURLTests {
    @Test("the parts of a URL; sslmode prefer by default; every libpq mode by name")
    func parts() throws {
        let url = try PostgresURL("postgres://app:s3cret@db.example.com:6543/subs")
        #expect(url.host == "db.example.com" && url.port == 6543 && url.username == "app" && url.password == "s3cret")
        #expect(url.database == "subs" && url.sslMode == .prefer && url.sslRootCertificatePath == nil)
        for mode in PostgresURL.SSLMode.allCases {
            #expect(try PostgresURL("postgres://h/d?sslmode=\(mode.rawValue)").sslMode == mode)
        }
        #expect(
            try PostgresURL("postgresql://h/d?sslmode=verify-full&sslrootcert=/etc/ca.pem").sslRootCertificatePath
                == "/etc/ca.pem")
    }

    @Test(
        "a wrong URL is refused naming the part, never the password",
        arguments: [
            ("mysql://u:pw@h/d", "postgres://"),
            ("postgres://u:pw@h/d?sslmode=sometimes", "sometimes"),
            ("postgres://u:pw@h/d?sslcert=x", "sslcert"),
        ])
    func refused(_ url: String, _ named: String) {
        let error = #expect(throws: StorageError.self) { try PostgresURL(url) }
        #expect(error?.reason.contains(named) == true, "\(error?.reason ?? "")")
        #expect(error?.reason.contains("pw") != true)
    }

    /// The test server's URL with `query` appended.
    static func url(_ query: String) async throws -> String? {
        guard let url = try await TestDatabases.freshPostgresDatabase() else { return nil }
        return url + "?" + query
    }

    /// Whether the store's connections use TLS, as the server reports it.
    static func usesTLS(_ url: String) async throws -> Bool {
        let store = try await SQLStore.postgres(url: url)
        defer { Task { try? await store.close() } }
        let row = try await store.database.read(
            "SELECT ssl::text AS ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()", [])
        return row.first?["ssl"]?.string == "true"
    }

    @Test(
        "against the local server's self-signed certificate: require and verify-full with its root use TLS; disable does not; verify-full without the root is refused"
    )
    func tlsModes() async throws {
        guard let certificate = ProcessInfo.processInfo.environment["STOREKEEPER_TEST_PG_CERT"],
            FileManager.default.fileExists(atPath: certificate)
        else {
            if TestDatabases.postgresRequired {
                Issue.record("STOREKEEPER_TEST_PG_CERT must name the test server's certificate")
            }
            return
        }
        guard let require = try await Self.url("sslmode=require") else { return }
        #expect(try await Self.usesTLS(require))
        let verified = try #require(try await Self.url("sslmode=verify-full&sslrootcert=\(certificate)"))
        #expect(try await Self.usesTLS(verified))
        let plain = try #require(try await Self.url("sslmode=disable"))
        #expect(try await !Self.usesTLS(plain))
        // Without the root, the self-signed certificate is refused (one connection, as the pool would make it).
        let untrusted = try PostgresURL(try #require(try await Self.url("sslmode=verify-full")))
        var logger = Logger(label: "tests.tls")
        logger.logLevel = .critical
        let configuration = PostgresConnection.Configuration(
            host: untrusted.host, port: untrusted.port, username: untrusted.username, password: untrusted.password,
            database: untrusted.database, tls: try untrusted.connectionTLS())
        await #expect(throws: (any Error).self) {
            let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
            try await connection.close()
        }
    }
}
