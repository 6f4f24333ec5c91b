import AppStoreModels
import AppStoreSimulator
import AsyncHTTPClient
import Foundation
import NIOCore
import StoreKeeperAPI
import TestDatabaseSupport
import TestSupport
import Testing

/// `GET /v1/metrics/{name}` over real HTTP: computed from what the project stores, as JSON and CSV, secret key only,
/// every bad parameter refused by name.
@Suite struct MetricsEndToEndTests {
    typealias E2E = ServerEndToEndTests

    static func raw(_ base: String, _ path: String, key: String?) async throws -> (Int, String, String) {
        var request = HTTPClientRequest(url: base + path)
        if let key { request.headers.add(name: "Authorization", value: "Bearer \(key)") }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let body = String(buffer: try await response.body.collect(upTo: 1 << 20))
        return (Int(response.status.code), response.headers.first(name: "Content-Type") ?? "", body)
    }

    @Test(
        "new subscriptions, MRR, revenue and ARR from the stored evidence, as JSON and as CSV",
        arguments: TestDatabases.backends)
    func metrics(_ backend: String) async throws {
        try await E2E.withServers(backend) { h, client, _, _ in
            let day = AppleDateFormat.rfc3339(h.clock.now()).prefix(10)
            let tomorrow = AppleDateFormat.rfc3339(h.clock.now().addingTimeInterval(86_400)).prefix(10)
            for (customer, product) in [("m1", "premium.monthly"), ("m2", "premium.monthly"), ("y1", "premium.annual")]
            {
                #expect(try await client.buy(h, product, customer: customer).status == 200)
            }
            await h.advance(months: 0.01)  // the purchases are in the past of the server's clock
            let range = [
                ("from", String(day)), ("to", String(tomorrow)), ("interval", "day"), ("environment", "Sandbox"),
            ]
            let (status, body) = try await client.call(
                .GET, APIPath.metric("new_subscriptions", query: range), key: E2E.secretKey)
            #expect(status == 200)
            let series = try #require(body["series"] as? [[String: Any]])
            let points = try #require(series.first?["points"] as? [[String: Any]])
            #expect(series.first?["key"] as? String == "all")
            #expect(points.last?["value"] as? Double == 3 && points.last?["start"] as? String == "\(day)T00:00:00Z")
            #expect(points.dropLast().allSatisfy { $0["value"] as? Double == 0 })

            // The sandbox's 5-minute month and 60-minute year are a month and a year: 9.99 × 2 + 79.99 / 12.
            let (_, mrr) = try await client.call(
                .GET, APIPath.metric("mrr", query: range + [("split", "product")]), key: E2E.secretKey)
            let bySeries = Dictionary(
                uniqueKeysWithValues: (mrr["series"] as? [[String: Any]] ?? []).map {
                    ($0["key"] as? String ?? "", ($0["points"] as? [[String: Any]])?.last?["value"] as? Double)
                })
            // And in the configured reporting currency (EUR; a dollar is two).
            #expect(
                bySeries == [
                    "premium.monthly USD": 19.98, "premium.annual USD": 6.666,
                    "premium.monthly reporting EUR": 39.96, "premium.annual reporting EUR": 13.332,
                ])

            // Revenue books the three prices today; ARR is twelve months of each plan's price.
            for (name, expected) in [
                ("revenue", ["USD": 99.97, "reporting EUR": 199.94]), ("arr", ["USD": 319.75, "reporting EUR": 639.5]),
                ("proceeds", ["USD": 69.979, "reporting EUR": 139.958]),
            ] {
                let (_, answer) = try await client.call(.GET, APIPath.metric(name, query: range), key: E2E.secretKey)
                let last = Dictionary(
                    uniqueKeysWithValues: (answer["series"] as? [[String: Any]] ?? []).map {
                        ($0["key"] as? String ?? "", ($0["points"] as? [[String: Any]])?.last?["value"] as? Double)
                    })
                #expect(last == expected, "\(name)")
            }

            let (csvStatus, type, csv) = try await Self.raw(
                client.base, APIPath.metric("new_subscriptions", query: range + [("format", "csv")]), key: E2E.secretKey
            )
            #expect(csvStatus == 200 && type.hasPrefix("text/csv"))
            #expect(csv.hasPrefix("key,start,value\n"))
            #expect(csv.hasSuffix("\"all\",\(day)T00:00:00Z,3\n"))

            // Production (the default) has none of the simulator's sandbox purchases.
            let (_, production) = try await client.call(
                .GET, APIPath.metric("new_subscriptions", query: [("from", String(day)), ("to", String(tomorrow))]),
                key: E2E.secretKey)
            #expect(
                ((production["series"] as? [[String: Any]])?.first?["points"] as? [[String: Any]])?.last?["value"]
                    as? Double == 0)
        }
    }

    @Test(
        "metrics kept between queries still count every change committed before the next query",
        arguments: TestDatabases.backends)
    func keptTimelinesFollowChanges(_ backend: String) async throws {
        try await E2E.withServers(backend) { h, client, _, delivery in
            let day = AppleDateFormat.rfc3339(h.clock.now()).prefix(10)
            let tomorrow = AppleDateFormat.rfc3339(h.clock.now().addingTimeInterval(86_400)).prefix(10)
            let range = [
                ("from", String(day)), ("to", String(tomorrow)), ("interval", "day"), ("environment", "Sandbox"),
            ]
            func today(_ name: String) async throws -> Double? {
                let (status, body) = try await client.call(.GET, APIPath.metric(name, query: range), key: E2E.secretKey)
                #expect(status == 200)
                let series = body["series"] as? [[String: Any]]
                return (series?.first?["points"] as? [[String: Any]])?.last?["value"] as? Double
            }
            #expect(try await client.buy(h, "premium.monthly", customer: "k1").status == 200)
            await h.advance(months: 0.01)
            #expect(try await today("new_subscriptions") == 1)
            #expect(try await today("active_subscriptions") == 1)
            // Subscribers who arrive after the first query are counted.
            let k2 = try await client.buy(h, "premium.monthly", customer: "k2")
            #expect(k2.status == 200)
            #expect(try await client.buy(h, "premium.annual", customer: "k3").status == 200)
            await h.advance(months: 0.01)
            #expect(try await today("new_subscriptions") == 3)
            #expect(try await today("active_subscriptions") == 3)
            // A refund that arrives by notification, after the last query, removes that subscription's access.
            try await h.simulator.refund(transactionID: k2.transaction.transactionID, reason: 1)
            await delivery.deliverDue()
            await h.advance(months: 0.01)
            #expect(try await today("active_subscriptions") == 2)
        }
    }

    @Test("secret key only; an unknown metric is 404; every bad parameter is refused naming it")
    func refusals() async throws {
        try await E2E.withServers("sqlite") { _, client, _, _ in
            #expect(try await client.call(.GET, APIPath.metric("mrr"), key: nil).0 == 401)
            #expect(try await client.call(.GET, APIPath.metric("mrr"), key: E2E.publicKey).0 == 403)
            let (unknown, body) = try await client.call(.GET, APIPath.metric("happiness"), key: E2E.secretKey)
            #expect(unknown == 404)
            #expect((body["error"] as? [String: Any])?["code"] as? String == "unknown_metric")
            for (parameter, value) in [
                ("from", "yesterday"), ("from", "2026-02-30"), ("to", "2026-13-01"), ("interval", "hour"),
                ("split", "country"), ("environment", "Staging"), ("format", "xml"),
            ] {
                let (status, refusal) = try await client.call(
                    .GET, APIPath.metric("mrr", query: [(parameter, value)]), key: E2E.secretKey)
                #expect(status == 400, "\(parameter)=\(value)")
                let message = (refusal["error"] as? [String: Any])?["message"] as? String ?? ""
                #expect(message.contains("\(parameter)=\"\(value)\""), "\(message)")
            }
            let (backwards, _) = try await client.call(
                .GET, APIPath.metric("mrr", query: [("from", "2026-02-01"), ("to", "2026-01-01")]), key: E2E.secretKey)
            #expect(backwards == 400)
            let (tooMany, _) = try await client.call(
                .GET, APIPath.metric("mrr", query: [("from", "1990-01-01"), ("to", "2026-01-01")]), key: E2E.secretKey)
            #expect(tooMany == 400)
        }
    }
}
