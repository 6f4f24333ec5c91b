import FilePermissions
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What `storekeeper serve` keeps private, and the configurations it refuses before it starts.
@Suite struct ServeSecurityTests {
    static func temporaryDirectory(_ name: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    static func config(_ directory: URL, _ json: String) throws -> String {
        let file = directory.appendingPathComponent("config.json")
        try Data(json.utf8).writePrivately(to: file)
        return file.path
    }

    @Test("under umask 022 the data folder is 0700, the database files and every private key 0600")
    func fileModes() async throws {
        let previous = umask(0o022)
        defer { umask(previous) }
        let directory = try Self.temporaryDirectory("modes")
        defer { try? FileManager.default.removeItem(at: directory) }
        let data = directory.appendingPathComponent("data").path
        let server = try await BackgroundCommand([
            "serve", "--port", "0", "--config", try Self.config(directory, #"{"dataDirectory": "\#(data)"}"#),
        ])
        defer { server.stop() }
        #expect(PrivateFiles.mode(data) == 0o700)
        #expect(PrivateFiles.mode(data + "/simulator") == 0o700)
        #expect(PrivateFiles.mode(data + "/simulator/pki") == 0o700)
        #expect(PrivateFiles.mode(data + "/storekeeper.sqlite") == 0o600)
        for suffix in ["-wal", "-shm"] {
            let mode = try #require(
                PrivateFiles.mode(data + "/storekeeper.sqlite" + suffix), "storekeeper.sqlite\(suffix) missing")
            #expect(mode == 0o600, "storekeeper.sqlite\(suffix) is 0\(String(mode, radix: 8))")
        }
        for key in ["jws-leaf-key.pem", "receipt-leaf-key.pem"] {
            #expect(PrivateFiles.mode(data + "/simulator/pki/" + key) == 0o600, "\(key)")
        }
    }

    @Test("a private key file others can read is refused at startup, naming it")
    func readableKeyRefused() async throws {
        let directory = try Self.temporaryDirectory("keys")
        defer { try? FileManager.default.removeItem(at: directory) }
        let data = directory.appendingPathComponent("data").path
        let config = try Self.config(directory, #"{"dataDirectory": "\#(data)"}"#)
        do {
            let first = try await BackgroundCommand(["serve", "--port", "0", "--config", config])
            await first.stop()
        }
        let key = data + "/simulator/pki/jws-leaf-key.pem"
        chmod(key, 0o644)
        let refused = try await CommandRunner.run(["serve", "--port", "0", "--config", config])
        #expect(refused.status != 0)
        #expect(
            refused.standardError.contains(key) && refused.standardError.contains("chmod 600"),
            "\(refused.standardError)")

        // The same for an app's App Store Server API key (.p8).
        let p8 = directory.appendingPathComponent("AuthKey.p8").path
        try Data("not a key".utf8).write(to: URL(fileURLWithPath: p8))
        chmod(p8, 0o644)
        let appConfig = try Self.config(
            directory,
            #"""
            {"dataDirectory": "\#(data)", "apps": [{"bundleID": "com.example.app", "issuerID": "i", "keyID": "k", "privateKeyPath": "\#(p8)"}]}
            """#)
        let refusedP8 = try await CommandRunner.run(["serve", "--port", "0", "--config", appConfig])
        #expect(refusedP8.status != 0 && refusedP8.standardError.contains(p8), "\(refusedP8.standardError)")
    }

    @Test("a configured API key shorter than 32 characters is refused; the demo keys only in demo mode")
    func shortKeysRefused() async throws {
        let directory = try Self.temporaryDirectory("short")
        defer { try? FileManager.default.removeItem(at: directory) }
        let data = directory.appendingPathComponent("data").path
        for key in ["pk_short", "pk_demo_storekeeper_public"] {
            let config = try Self.config(
                directory,
                #"""
                {"dataDirectory": "\#(data)", "apps": [{"bundleID": "com.example.app"}],
                 "apiKeys": [{"key": "\#(key)", "kind": "public", "bundleID": "com.example.app"}]}
                """#)
            let result = try await CommandRunner.run(["serve", "--port", "0", "--config", config])
            #expect(result.status != 0)
            #expect(
                result.standardError.contains("apiKeys") && result.standardError.contains("at least 32"),
                "\(result.standardError)")
            #expect(!result.standardError.contains(key), "the key itself must not be printed")
        }
    }

    @Test("a configuration with its own app and keys: the banner offers no demo key, and the demo keys answer 401")
    func bannerOffersOnlyKeysTaken() async throws {
        let directory = try Self.temporaryDirectory("banner")
        defer { try? FileManager.default.removeItem(at: directory) }
        let data = directory.appendingPathComponent("data").path
        let config = try Self.config(
            directory,
            #"""
            {"dataDirectory": "\#(data)", "apps": [{"bundleID": "com.example.app"}], "simulator": true,
             "apiKeys": [{"key": "pk_own_0123456789abcdefghijklmnopqrstuv", "kind": "public", "bundleID": "com.example.app"}]}
            """#)
        let server = try await BackgroundCommand(["serve", "--port", "0", "--config", config])
        defer { server.stop() }
        #expect(server.printed.contains("com.example.app"), "\(server.printed)")
        #expect(!server.printed.contains("pk_demo") && !server.printed.contains("sk_demo"), "\(server.printed)")
        #expect(!server.printed.contains("pk_own_"), "a configured key is never printed")
        let (status, _) = try await ServeClient(base: server.baseURL).call(
            .GET, "/v1/subscribers/alice", key: "pk_demo_storekeeper_public")
        #expect(status == 401)
    }

    @Test("a configuration file that holds secrets and other users can read is refused at startup, naming it")
    func readableSecretsRefused() async throws {
        let directory = try Self.temporaryDirectory("secrets")
        defer { try? FileManager.default.removeItem(at: directory) }
        let data = directory.appendingPathComponent("data").path
        let key = "sk_readable_0123456789abcdefghijklmnopqrstuv"
        let config = try Self.config(
            directory,
            #"""
            {"dataDirectory": "\#(data)", "apps": [{"bundleID": "com.example.app"}],
             "apiKeys": [{"key": "\#(key)", "kind": "secret", "bundleID": "com.example.app"}]}
            """#)
        chmod(config, 0o644)
        let refused = try await CommandRunner.run(["serve", "--port", "0", "--config", config])
        #expect(refused.status != 0)
        #expect(
            refused.standardError.contains(config) && refused.standardError.contains("apiKeys")
                && refused.standardError.contains("chmod 600"), "\(refused.standardError)")
        #expect(!refused.standardError.contains(key), "the key itself must not be printed")
        // Kept from other users (its group may read it, as a service's group does), it starts.
        chmod(config, 0o640)
        let server = try await BackgroundCommand(["serve", "--port", "0", "--config", config])
        await server.stop()
        // A file with no secrets in it may be read by anyone.
        let plain = try Self.config(directory, #"{"dataDirectory": "\#(data)"}"#)
        chmod(plain, 0o644)
        let open = try await BackgroundCommand(["serve", "--port", "0", "--config", plain])
        await open.stop()
    }

    @Test("keys new prints a fresh 46-character key of the asked kind each time")
    func newKeys() async throws {
        let first = try await CommandRunner.run(["keys", "new", "public"]).standardOutput.trimmingCharacters(
            in: .whitespacesAndNewlines)
        let second = try await CommandRunner.run(["keys", "new", "public"]).standardOutput.trimmingCharacters(
            in: .whitespacesAndNewlines)
        let secret = try await CommandRunner.run(["keys", "new", "secret"]).standardOutput.trimmingCharacters(
            in: .whitespacesAndNewlines)
        #expect(first.hasPrefix("pk_") && first.count == 46 && first != second)
        #expect(secret.hasPrefix("sk_") && secret.count == 46)
        #expect(first.dropFirst(3).allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) })
        #expect(try await CommandRunner.run(["keys", "new", "other"]).status == 2)
    }
}
