import AsyncHTTPClient
import Foundation
import Hummingbird
import Logging
import Synchronization
import TestSupport
import Testing

@testable import StoreKeeperServer

/// Every log line: its message and metadata.
private final class LogLines: Sendable {
    let lines = Mutex<[(String, Logger.Metadata)]>([])
}

/// Keeps every log line's metadata.
private struct CapturingLogHandler: LogHandler {
    let lines: LogLines
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        lines.lines.withLock { $0.append(("\(event.message)", merged)) }
    }
}

@Suite struct RequestScopeTests {
    @Test("a line logged deep inside a request carries the same request id as the request's own line")
    func requestIDOnEveryLine() async throws {
        let captured = LogLines()
        var logger = Logger(label: "test") { _ in CapturingLogHandler(lines: captured) }
        logger.logLevel = .info
        let router = Router()
        router.add(middleware: RequestLogMiddleware())
        router.get("deep") { _, _ -> String in
            RequestScope.logger?.warning("something deep went wrong")
            return "ok"
        }
        try await LiveServer.with({ port in
            Application(
                router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                onServerRunning: { await port($0.localAddress?.port ?? 0) }, logger: logger)
        }) { base in
            let response = try await HTTPClient.shared.execute(
                HTTPClientRequest(url: base + "/deep"), timeout: .seconds(10))
            #expect(response.status == .ok)
        }
        let lines = captured.lines.withLock { $0 }
        let deep = try #require(lines.first { $0.0 == "something deep went wrong" })
        let request = try #require(lines.first { $0.0 == "request" })
        let id = try #require(request.1["hb.request.id"])
        #expect(deep.1["hb.request.id"] == id)
        #expect(RequestScope.logger == nil, "outside a request there is no request logger")
    }
}
