import AsyncHTTPClient
import Foundation
import Hummingbird
import Logging
import TestSupport
import Testing

@testable import StoreKeeperServer

@Suite struct RequestScopeTests {
    @Test("a line logged deep inside a request carries the same request id as the request's own line")
    func requestIDOnEveryLine() async throws {
        let captured = CapturedLog()
        let logger = captured.logger(level: .info)
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
        let lines = captured.lines
        let deep = try #require(lines.first { $0.0 == "something deep went wrong" })
        let request = try #require(lines.first { $0.0 == "request" })
        let id = try #require(request.1["hb.request.id"])
        #expect(deep.1["hb.request.id"] == id)
        #expect(RequestScope.logger == nil, "outside a request there is no request logger")
    }
}
