import Foundation
import StoreKeeperServer
import TestSupport
import Testing

/// The HTTP server's edges: bad requests are 400 with the JSON error body, a stalled request or idle connection
/// is closed on time, and connections beyond the maximum are refused at once while open ones are still served.
@Suite struct ConnectionGuardTests {
    static var shortLimits: ConnectionLimits {
        var limits = ConnectionLimits()
        limits.idleTimeoutSeconds = 1.5
        limits.headerTimeoutSeconds = 1
        limits.bodyTimeoutSeconds = 1
        limits.responseTimeoutSeconds = 1
        limits.maximumConnections = 6
        return limits
    }

    @Test("a malformed chunk size on every POST route answers 400 with the JSON error body and changes nothing")
    func malformedChunk() async throws {
        try await TenantServers.with("sqlite") { servers in
            let before = try await servers.store.dump()
            for route in APIRoute.all where route.method == .post {
                let connection = try RawConnection(port: servers.port)
                let path = route.endpoint.path(route.endpoint.parameters.map { _ in "someone" })
                connection.send(
                    "POST \(path) HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(TenantServers.secretA)\r\n"
                        + "Transfer-Encoding: chunked\r\n\r\nZZ\r\nabc\r\n0\r\n\r\n")
                let (answer, closed) = await connection.readUntilClosed(within: 5)
                #expect(answer.hasPrefix("HTTP/1.1 400"), "\(route): \(answer)")
                #expect(answer.contains(#""code":"malformed_request""#), "\(route): \(answer)")
                #expect(closed, "\(route): the connection stays open after a parse failure")
            }
            #expect(try await servers.store.dump() == before)
        }
    }

    @Test("a request that cannot be parsed before its header ends answers 400 with the JSON error body")
    func malformedRequestLine() async throws {
        try await TenantServers.with("sqlite") { servers in
            let connection = try RawConnection(port: servers.port)
            connection.send("GET\u{1}\u{2} / HTTP/1.1\r\n\r\n")
            let (answer, closed) = await connection.readUntilClosed(within: 5)
            #expect(answer.hasPrefix("HTTP/1.1 400") && answer.contains(#""code":"malformed_request""#), "\(answer)")
            #expect(closed)
        }
    }

    @Test("a request line without a version is answered 408 and closed after the header timeout")
    func stalledHeader() async throws {
        try await TenantServers.with("sqlite", limits: Self.shortLimits) { servers in
            let connection = try RawConnection(port: servers.port)
            let started = Date()
            connection.send("GET /health\r\n")
            let (answer, closed) = await connection.readUntilClosed(within: 10)
            #expect(
                closed && answer.hasPrefix("HTTP/1.1 408") && answer.contains(#""code":"header_timeout""#), "\(answer)")
            #expect(Date().timeIntervalSince(started) >= 0.9)
            #expect(Date().timeIntervalSince(started) < 8)
        }
    }

    @Test("a client that never reads its answers has its connection closed after the response timeout")
    func clientThatNeverReads() async throws {
        try await TenantServers.with("sqlite", limits: Self.shortLimits) { servers in
            // A 4 KB receive window and 300 pipelined requests for a large document, none of it read.
            let connection = try RawConnection(port: servers.port, receiveBuffer: 4_096)
            connection.send(String(repeating: "GET /openapi.json HTTP/1.1\r\nHost: x\r\n\r\n", count: 300))
            try await Task.sleep(for: .seconds(4))
            // Read what was queued: a server that kept the connection would now send all 300 answers.
            let (answer, closed) = await connection.readUntilClosed(within: 20)
            let answered = answer.components(separatedBy: "HTTP/1.1 200").count - 1
            #expect(closed)
            #expect(answered < 300, "\(answered) answers: the connection was held open for a client that did not read")
            // The server still serves others.
            let other = try RawConnection(port: servers.port)
            other.send("GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(await other.readUntilClosed(within: 5).text.hasPrefix("HTTP/1.1 200"))
        }
    }

    @Test("a body that stops arriving closes the connection after the body timeout; an idle one after the idle timeout")
    func stalledBodyAndIdle() async throws {
        try await TenantServers.with("sqlite", limits: Self.shortLimits) { servers in
            let body = try RawConnection(port: servers.port)
            body.send(
                "POST /v1/receipts HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(TenantServers.publicA)\r\nContent-Length: 100\r\n\r\n{\"app"
            )
            let started = Date()
            let bodyClosed = await body.readUntilClosed(within: 10).closed
            #expect(bodyClosed)
            #expect(Date().timeIntervalSince(started) < 8)

            let idle = try RawConnection(port: servers.port)
            idle.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            // The server runs in the test process, whose timers run late while the whole suite loads the machine.
            let (answer, closed) = await idle.readUntilClosed(within: 30)
            #expect(answer.hasPrefix("HTTP/1.1 200") && closed, "\(answer)")
        }
    }

    @Test("beyond the maximum, a new connection is refused with 503 at once while open ones keep being served")
    func maximumConnections() async throws {
        var limits = Self.shortLimits
        limits.idleTimeoutSeconds = 30
        limits.headerTimeoutSeconds = 30
        let maximum = limits.maximumConnections
        try await TenantServers.with("sqlite", limits: limits) { servers in
            let open = try (0..<maximum).map { _ in try RawConnection(port: servers.port) }
            for connection in open {
                // Served once, so certainly accepted and counted before the next one arrives.
                connection.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
                let answer = await connection.read(until: "ok", within: 5).text
                #expect(answer.hasPrefix("HTTP/1.1 200"))
            }
            let started = Date()
            let refused = try RawConnection(port: servers.port)
            let (answer, closed) = await refused.readUntilClosed(within: 5)
            #expect(closed && answer.hasPrefix("HTTP/1.1 503") && answer.contains("too_many_connections"), "\(answer)")
            #expect(Date().timeIntervalSince(started) < 8)
            open[0].send("GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let served = await open[0].readUntilClosed(within: 5).text
            #expect(served.hasPrefix("HTTP/1.1 200"))
        }
    }
}
