import Foundation
import NIOHTTP1
import StoreKeeperServer
import TestSupport
import Testing

/// Every body and path is read one way, strictly, and a refusal names what was wrong by its whole path. Played over
/// HTTP as a client that slips in what a lenient reader would take: a field nested where nothing reads it, a key
/// given twice (a proxy takes the last, a decoder the first), a broken percent-escape, an id with a space, a
/// webhook URL no delivery can reach.
@Suite struct RequestStrictnessTests {
    typealias E2E = ServerEndToEndTests

    static func error(_ body: [String: Any]) -> (code: String?, message: String) {
        let error = body["error"] as? [String: Any]
        return (error?["code"] as? String, error?["message"] as? String ?? "\(body)")
    }

    @Test("a field nested where nothing reads it, or a key given twice, is refused and nothing is stored")
    func nestedAndDuplicate() async throws {
        try await E2E.withServers("sqlite") { _, client, _, _ in
            let nested =
                #"{"identifier":"sale","packages":[{"identifier":"m","product_id":"premium.monthly","price_override":"0.01"}]}"#
            let (refused, why) = try await client.call(
                .POST, "/v1/offerings", key: E2E.secretKey, body: Data(nested.utf8))
            #expect(refused == 400 && Self.error(why).code == "unknown_field", "\(why)")
            #expect(Self.error(why).message.contains("packages[0].price_override"), "\(why)")

            let twice = #"{"identifier":"sale","identifier":"other","packages":[]}"#
            let (duplicate, said) = try await client.call(
                .POST, "/v1/offerings", key: E2E.secretKey, body: Data(twice.utf8))
            #expect(duplicate == 400 && Self.error(said).code == "invalid_json", "\(said)")
            #expect(Self.error(said).message.contains("duplicate key \"identifier\""), "\(said)")
            let nestedTwice = #"{"attributes":{"$email":"a@example.com","$email":"b@example.com"}}"#
            let (again, told) = try await client.call(
                .POST, "/v1/subscribers/ann/attributes", key: E2E.secretKey, body: Data(nestedTwice.utf8))
            #expect(again == 400 && Self.error(told).code == "invalid_json", "\(told)")

            let (_, list) = try await client.call(.GET, "/v1/offerings", key: E2E.secretKey)
            #expect((list["offerings"] as? [Any])?.isEmpty == true, "nothing was stored: \(list)")
        }
    }

    @Test("a value of the wrong type is named by its path and the type it must be")
    func wrongTypeNamesThePath() async throws {
        try await E2E.withServers("sqlite") { _, client, _, _ in
            let (offered, answer) = try await client.call(
                .POST, "/v1/offerings", key: E2E.secretKey,
                body: Data(#"{"identifier":"x","packages":[{"identifier":7,"product_id":"premium.monthly"}]}"#.utf8))
            #expect(offered == 400 && Self.error(answer).message == "packages[0].identifier must be a string")
            let (listed, metadata) = try await client.call(
                .POST, "/v1/offerings", key: E2E.secretKey,
                body: Data(#"{"identifier":"x","packages":[],"metadata":["a"]}"#.utf8))
            #expect(listed == 400 && Self.error(metadata).message == "metadata must be an object", "\(metadata)")
        }
    }

    @Test("a path id with broken percent-encoding is refused, not kept raw")
    func brokenPercentEncoding() async throws {
        try await E2E.withServers("sqlite") { _, client, _, _ in
            let port = Int(client.base.split(separator: ":").last ?? "") ?? 0
            // Sent as written: an HTTP client would escape the lone "%" itself.
            for id in ["ann%zz", "ann%", "ann%4", "%C3%28", "%FF"] {
                let connection = try RawConnection(port: port)
                connection.send(
                    "GET /v1/subscribers/\(id) HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(E2E.publicKey)\r\n"
                        + "Connection: close\r\n\r\n")
                let (answer, _) = await connection.readUntilClosed(within: 5)
                #expect(
                    answer.hasPrefix("HTTP/1.1 400") && answer.contains(#""code":"invalid_parameter""#)
                        || answer.hasPrefix("HTTP/1.1 404") && !answer.contains("app_user_id"),
                    "\(id): \(answer)")
                #expect(!answer.contains("ann%"), "\(id) was kept raw: \(answer)")
            }
            let (fine, answer) = try await client.call(.GET, "/v1/subscribers/ann%2Dlee")
            #expect(fine == 200 && (answer["subscriber"] as? [String: Any])?["app_user_id"] as? String == "ann-lee")
        }
    }

    @Test("the dashboard opens the id as written: a space before it is another id")
    func dashboardIDExact() async throws {
        try await E2E.withServers("sqlite") { h, client, _, _ in
            let (_, status) = try await client.buy(h, "premium.monthly", customer: "victim")
            #expect(status == 200)
            let cookie = try #require(try await TestBrowser(base: client.base).signIn(key: E2E.secretKey))
            let browser = TestBrowser(base: client.base, cookie: cookie)
            let exact = try await browser.go(.GET, "/dashboard/subscribers?id=victim")
            #expect(exact.body.contains("premium.monthly"))
            for spaced in ["%20victim", "victim%20"] {
                let page = try await browser.go(.GET, "/dashboard/subscribers?id=\(spaced)")
                #expect(!page.body.contains("premium.monthly"), "\(spaced) opened victim's page")
            }
        }
    }

    @Test("a webhook URL no delivery could use is refused when the endpoint is created")
    func webhookURLOneRule() async throws {
        try await E2E.withServers("sqlite") { _, client, _, _ in
            for url in [
                "http://127.0.0.1:99999/hook", "http://127.0.0.1:0/hook", "http://[::ffff:0:169.254.169.254]/hook",
                "http://[::ffff:0:a9fe:a9fe]:8080/hook",
            ] {
                let (status, body) = try await client.call(
                    .POST, "/v1/webhooks", key: E2E.secretKey, body: client.json(["url": url]))
                #expect(status == 400 && Self.error(body).code == "invalid_url", "\(url): \(body)")
            }
            let (_, endpoints) = try await client.call(.GET, "/v1/webhooks", key: E2E.secretKey)
            #expect((endpoints["endpoints"] as? [Any])?.isEmpty ?? true, "\(endpoints)")
        }
    }
}
