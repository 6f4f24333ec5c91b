import Foundation
import NIOSSL
public import PostgresNIO
import StoreKeeperStorage

/// A `DATABASE_URL` read the way libpq reads it: `postgres://user:password@host:port/database?sslmode=…&sslrootcert=…`.
///
/// `sslmode` is `disable`, `prefer` (the default: TLS when the server offers it, the certificate not checked),
/// `require` (TLS or nothing, the certificate not checked), `verify-ca` (TLS, the certificate chains to
/// `sslrootcert` or the system's roots) or `verify-full` (that, and the host name matches it). Every managed
/// PostgreSQL needs at least `require`.
public struct PostgresURL: Sendable {
    /// How the connection uses TLS.
    public enum SSLMode: String, Sendable, CaseIterable {
        /// Never TLS.
        case disable
        /// TLS when the server offers it, the certificate unchecked.
        case prefer
        /// TLS or no connection, the certificate unchecked.
        case require
        /// TLS, the certificate checked against the roots.
        case verifyCA = "verify-ca"
        /// TLS, the certificate checked against the roots and the host name.
        case verifyFull = "verify-full"
    }

    /// The host.
    public var host: String
    /// The port. Default 5432.
    public var port: Int
    /// The user. Default `postgres`.
    public var username: String
    /// The password, if any (never logged).
    public var password: String?
    /// The database, if named.
    public var database: String?
    /// The TLS mode. Default `prefer`.
    public var sslMode: SSLMode
    /// A PEM file of trusted roots for `verify-ca` / `verify-full` (default: the system's).
    public var sslRootCertificatePath: String?

    /// Reads a URL.
    /// - Parameter url: The `DATABASE_URL`.
    /// - Throws: ``StorageError`` naming the part that is wrong (never the password).
    public init(_ url: String) throws {
        guard let components = URLComponents(string: url),
            ["postgres", "postgresql"].contains(components.scheme ?? ""),
            let host = components.host, !host.isEmpty
        else { throw StorageError("DATABASE_URL is not a postgres://user:password@host:port/database URL") }
        self.host = host
        port = components.port ?? 5432
        username = components.user ?? "postgres"
        password = components.password
        database = components.path.split(separator: "/").first.map(String.init)
        var mode = SSLMode.prefer
        var rootPath: String?
        for item in components.queryItems ?? [] {
            switch item.name {
            case "sslmode":
                guard let value = item.value, let parsed = SSLMode(rawValue: value) else {
                    throw StorageError(
                        "DATABASE_URL: sslmode \"\(item.value ?? "")\" is not one of \(SSLMode.allCases.map(\.rawValue).joined(separator: ", "))"
                    )
                }
                mode = parsed
            case "sslrootcert":
                rootPath = item.value
            default:
                throw StorageError(
                    "DATABASE_URL: unknown parameter \"\(item.name)\"; StoreKeeper reads sslmode and sslrootcert")
            }
        }
        sslMode = mode
        sslRootCertificatePath = rootPath
    }

    /// The TLS setting for PostgresNIO's pool.
    /// - Throws: ``StorageError`` when `sslrootcert` cannot be read.
    public func clientTLS() throws -> PostgresClient.Configuration.TLS {
        guard let configuration = try tlsConfiguration() else { return .disable }
        return sslMode == .prefer ? .prefer(configuration) : .require(configuration)
    }

    /// The TLS setting for one PostgresNIO connection (the change listener).
    /// - Throws: ``StorageError`` when `sslrootcert` cannot be read or the TLS context cannot be made.
    public func connectionTLS() throws -> PostgresConnection.Configuration.TLS {
        guard let configuration = try tlsConfiguration() else { return .disable }
        let context: NIOSSLContext
        do { context = try NIOSSLContext(configuration: configuration) } catch {
            throw StorageError("DATABASE_URL: cannot set up TLS: \(error)")
        }
        return sslMode == .prefer ? .prefer(context) : .require(context)
    }

    /// The client TLS configuration the mode asks for, or `nil` for `disable`.
    func tlsConfiguration() throws -> TLSConfiguration? {
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch sslMode {
        case .disable: return nil
        case .prefer, .require: configuration.certificateVerification = .none
        case .verifyCA: configuration.certificateVerification = .noHostnameVerification
        case .verifyFull: configuration.certificateVerification = .fullVerification
        }
        if let sslRootCertificatePath {
            do {
                configuration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(sslRootCertificatePath))
            } catch {
                throw StorageError(
                    "DATABASE_URL: sslrootcert \(sslRootCertificatePath) cannot be read as PEM certificates: \(error)")
            }
        }
        return configuration
    }
}
