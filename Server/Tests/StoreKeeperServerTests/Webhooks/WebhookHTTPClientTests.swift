import Crypto
import Foundation
import NIOCore
import NIOSSL
import SwiftASN1
import TestSupport
import Testing
import X509

@testable import StoreKeeperServer

/// The webhook client keeps one connection per lane, posts exactly what it is given, never follows a redirect,
/// gives up at the deadline, replaces a kept connection the receiver closed, and never connects to a refused
/// address.
@Suite struct WebhookHTTPClientTests {
    /// Runs `body` with a started server and a client, and stops both after.
    func withServer(
        _ script: @escaping @Sendable (Int) -> ScriptedHTTPServer.Answer,
        _ body: (ScriptedHTTPServer, WebhookHTTPClient) async throws -> Void
    ) async throws {
        let server = try ScriptedHTTPServer(script: script)
        try await server.start()
        let client = WebhookHTTPClient()
        do {
            try await body(server, client)
        } catch {
            await client.shutdown()
            await server.stop()
            throw error
        }
        await client.shutdown()
        await server.stop()
    }

    func url(_ server: ScriptedHTTPServer, _ path: String = "/hook?source=storekeeper") throws -> WebhookURL {
        try #require(WebhookURL("http://127.0.0.1:\(server.port)\(path)"))
    }

    /// A deadline no answer on loopback misses, even while the whole suite shares two cores.
    static let soon = TimeAmount.seconds(60)

    @Test func aLaneSendsItsRequestsOneAfterAnotherOnOneConnection() async throws {
        try await withServer({ _ in .status(204) }) { server, client in
            var connection: WebhookHTTPClient.Connection?
            for index in 0..<5 {
                let status = try await client.post(
                    try url(server), headers: [("StoreKeeper-Event-Id", "evt_\(index)")],
                    body: ByteBuffer(string: "{\"n\":\(index)}"), over: &connection, deadline: .now() + Self.soon)
                #expect(status == 204)
                #expect(connection != nil, "the receiver keeps the connection, so the lane does")
            }
            #expect(server.connections == 1)
            let requests = server.requests
            #expect(requests.count == 5)
            let last = try #require(requests.last)
            #expect(last.target == "/hook?source=storekeeper")
            #expect(String(decoding: last.body, as: UTF8.self) == "{\"n\":4}")
            let headers = Dictionary(last.headers.map { ($0.0.lowercased(), $0.1) }, uniquingKeysWith: { $1 })
            #expect(headers["host"] == "127.0.0.1:\(server.port)")
            #expect(headers["content-length"] == "7")
            #expect(headers["storekeeper-event-id"] == "evt_4")

            client.release(connection)
            var next: WebhookHTTPClient.Connection?
            _ = try await client.post(
                try url(server), headers: [], body: ByteBuffer(), over: &next, deadline: .now() + Self.soon)
            #expect(server.connections == 1, "a released connection is taken by the next lane")
        }
    }

    @Test func aConnectionTheReceiverClosesIsNotKept() async throws {
        try await withServer({ _ in .statusAndClose(200) }) { server, client in
            var connection: WebhookHTTPClient.Connection?
            for _ in 0..<3 {
                let status = try await client.post(
                    try url(server), headers: [], body: ByteBuffer(string: "{}"), over: &connection,
                    deadline: .now() + Self.soon)
                #expect(status == 200)
                #expect(connection == nil, "Connection: close ends the lane's hold on it")
            }
            #expect(server.connections == 3)
        }
    }

    @Test func aKeptConnectionClosedBeforeAnsweringIsReplacedOnce() async throws {
        // Request 1 arrives on the kept connection and the receiver closes it (as at its idle timeout): the
        // request goes again on a new connection.
        try await withServer({ $0 == 1 ? .close : .status(200) }) { server, client in
            var connection: WebhookHTTPClient.Connection?
            for _ in 0..<2 {
                let status = try await client.post(
                    try url(server), headers: [], body: ByteBuffer(string: "{}"), over: &connection,
                    deadline: .now() + Self.soon)
                #expect(status == 200)
            }
            #expect(server.connections == 2)
            #expect(server.requests.count == 3)
        }
    }

    @Test func aNewConnectionClosedBeforeAnsweringFailsWithoutARetry() async throws {
        try await withServer({ _ in .close }) { server, client in
            var connection: WebhookHTTPClient.Connection?
            await #expect(throws: WebhookHTTPError.closed(answered: false)) {
                _ = try await client.post(
                    try url(server), headers: [], body: ByteBuffer(string: "{}"), over: &connection,
                    deadline: .now() + Self.soon)
            }
            #expect(connection == nil)
            #expect(server.requests.count == 1)
        }
    }

    @Test func aRedirectIsTheAnswerAndIsNeverFollowed() async throws {
        try await withServer({ _ in .status(302) }) { server, client in
            var connection: WebhookHTTPClient.Connection?
            let status = try await client.post(
                try url(server), headers: [], body: ByteBuffer(string: "{}"), over: &connection,
                deadline: .now() + Self.soon)
            #expect(status == 302)
            #expect(server.requests.count == 1)
        }
    }

    @Test func aReceiverThatNeverAnswersTimesOutAtTheDeadline() async throws {
        try await withServer({ _ in .silent }) { server, client in
            var connection: WebhookHTTPClient.Connection?
            // The receiver never answers: only the deadline ends the wait.
            await #expect(throws: WebhookHTTPError.timedOut) {
                _ = try await client.post(
                    try url(server), headers: [], body: ByteBuffer(string: "{}"), over: &connection,
                    deadline: .now() + .milliseconds(300))
            }
            #expect(connection == nil, "a connection that timed out is closed, never reused")
        }
    }

    @Test(arguments: ["http://169.254.169.254/latest", "http://[fe80::1]:8080/", "http://0.0.0.0:9/"])
    func aRefusedAddressIsNeverConnectedTo(_ raw: String) async throws {
        let client = WebhookHTTPClient()
        var connection: WebhookHTTPClient.Connection?
        do {
            _ = try await client.post(
                try #require(WebhookURL(raw)), headers: [], body: ByteBuffer(), over: &connection,
                deadline: .now() + Self.soon)
            Issue.record("\(raw) was posted to")
        } catch let error as WebhookHTTPError {
            guard case .refused(let reason) = error else {
                Issue.record("\(raw): \(error)")
                return
            }
            #expect(error.description.contains("never sent there"), "\(reason)")
        }
        await client.shutdown()
    }

    @Test func aPortNobodyListensOnIsUnreachable() async throws {
        let reserved = try ReservedPort()
        defer { reserved.release() }
        let port = reserved.port
        let client = WebhookHTTPClient()
        var connection: WebhookHTTPClient.Connection?
        do {
            _ = try await client.post(
                try #require(WebhookURL("http://127.0.0.1:\(port)/")), headers: [], body: ByteBuffer(),
                over: &connection, deadline: .now() + Self.soon)
            Issue.record("posted to a closed port")
        } catch let error as WebhookHTTPError {
            guard case .unreachable(let host, let failedPort, _) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(host == "127.0.0.1" && failedPort == port)
        }
        await client.shutdown()
    }

    @Test func afterShutdownNothingIsSent() async throws {
        try await withServer({ _ in .status(200) }) { server, client in
            await client.shutdown()
            var connection: WebhookHTTPClient.Connection?
            await #expect(throws: WebhookHTTPError.shutDown) {
                _ = try await client.post(
                    try url(server), headers: [], body: ByteBuffer(), over: &connection, deadline: .now() + Self.soon)
            }
            #expect(server.requests.isEmpty)
        }
    }

    @Test func aURLIsReadOnce() throws {
        let url = try #require(WebhookURL("HTTPS://Hooks.Example.com/a/b%20c?x=1&y=%2F"))
        #expect(url.origin == "https://hooks.example.com:443")
        #expect(url.hostHeader == "hooks.example.com")
        #expect(url.target == "/a/b%20c?x=1&y=%2F")
        #expect(url.isTLS)
        let v6 = try #require(WebhookURL("http://[::1]:8080"))
        #expect(v6.host == "::1" && v6.port == 8080 && v6.target == "/")
        #expect(v6.hostHeader == "[::1]:8080" && v6.origin == "http://[::1]:8080")
        #expect(WebhookURL("ftp://example.com/") == nil)
        #expect(WebhookURL("not a url") == nil)
        #expect(WebhookURL("http:///path") == nil)
    }

    @Test func anHTTPSEndpointIsVerifiedAgainstTheTrustRootsByItsName() async throws {
        let authority = P256.Signing.PrivateKey()
        let authorityName = try DistinguishedName { CommonName("StoreKeeper test CA") }
        let root = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(authority.publicKey),
            notValidBefore: Date() - 3_600, notValidAfter: Date() + 3_600, issuer: authorityName,
            subject: authorityName, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true))
            },
            issuerPrivateKey: .init(authority))
        let key = P256.Signing.PrivateKey()
        let leaf = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(key.publicKey),
            notValidBefore: Date() - 3_600, notValidAfter: Date() + 3_600, issuer: authorityName,
            subject: try DistinguishedName { CommonName("localhost") }, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                SubjectAlternativeNames([.dnsName("localhost")])
            },
            issuerPrivateKey: .init(authority))
        func nio(_ certificate: Certificate) throws -> NIOSSLCertificate {
            var serializer = DER.Serializer()
            try serializer.serialize(certificate)
            return try NIOSSLCertificate(bytes: serializer.serializedBytes, format: .der)
        }
        let server = try ScriptedHTTPServer(
            tls: .makeServerConfiguration(
                certificateChain: [.certificate(try nio(leaf))],
                privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(key.pemRepresentation.utf8), format: .pem))
            )
        ) { _ in .status(200) }
        try await server.start()
        var trusting = WebhookHTTPClient.Configuration()
        trusting.tls.trustRoots = .certificates([try nio(root)])
        let client = WebhookHTTPClient(configuration: trusting)
        let url = try #require(WebhookURL("https://localhost:\(server.port)/hook"))
        var connection: WebhookHTTPClient.Connection?
        let status = try await client.post(
            url, headers: [], body: ByteBuffer(string: "{}"), over: &connection, deadline: .now() + Self.soon)
        #expect(status == 200)
        await client.shutdown()

        let strangers = WebhookHTTPClient()
        var other: WebhookHTTPClient.Connection?
        await #expect(throws: (any Error).self, "a certificate no trust root vouches for is refused") {
            _ = try await strangers.post(
                url, headers: [], body: ByteBuffer(string: "{}"), over: &other, deadline: .now() + Self.soon)
        }
        await strangers.shutdown()
        #expect(server.requests.count == 1, "nothing is sent before the receiver's certificate is verified")
        await server.stop()
    }
}
