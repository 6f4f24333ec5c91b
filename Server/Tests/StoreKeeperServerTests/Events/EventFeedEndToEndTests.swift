import AppStoreModels
import AsyncHTTPClient
import Foundation
import StoreKeeperAPI
import TestDatabaseSupport
import TestSupport
import Testing

/// `GET /v1/events` over real HTTP: every subscriber event of the project once, page after page by cursor, as
/// JSON or ndjson; secret key only; a cursor or limit that is not one is refused naming it.
@Suite struct EventFeedEndToEndTests {
    typealias E2E = ServerEndToEndTests

    @Test(
        "pages of one event follow the cursor to the end, and the same cursor waits for the next event",
        arguments: TestDatabases.backends)
    func pages(_ backend: String) async throws {
        try await E2E.withServers(backend) { h, client, _, _ in
            for customer in ["f1", "f2", "f3"] {
                #expect(try await client.buy(h, "premium.monthly", customer: customer).status == 200)
            }
            let decoder = APICoding.decoder()
            var events: [ProjectEvent] = []
            var cursor: String?
            for _ in 0..<50 {
                let (status, _, body) = try await MetricsEndToEndTests.raw(
                    client.base, APIPath.eventFeed(after: cursor, limit: 1), key: E2E.secretKey)
                #expect(status == 200, "\(body)")
                let page = try decoder.decode(EventFeedResponse.self, from: Data(body.utf8))
                events += page.events
                if page.events.isEmpty {
                    #expect(page.nextCursor == cursor, "an empty page hands the same cursor back")
                    break
                }
                cursor = page.nextCursor
            }
            #expect(Set(events.map(\.id)).count == events.count, "each event once")
            #expect(Set(events.map(\.appUserID)) == ["f1", "f2", "f3"])
            #expect(events.allSatisfy { $0.cause == "client" && $0.type == "transaction_posted" })

            // A later purchase comes after the cursor the reader holds, and only it.
            #expect(try await client.buy(h, "premium.monthly", customer: "f4").status == 200)
            let (_, _, later) = try await MetricsEndToEndTests.raw(
                client.base, APIPath.eventFeed(after: cursor), key: E2E.secretKey)
            let next = try decoder.decode(EventFeedResponse.self, from: Data(later.utf8))
            #expect(next.events.map(\.appUserID) == ["f4"])

            // ndjson: one event per line, the cursor in a header.
            var request = HTTPClientRequest(url: client.base + APIPath.eventFeed(format: "ndjson"))
            request.headers.add(name: "Authorization", value: "Bearer \(E2E.secretKey)")
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
            let text = String(buffer: try await response.body.collect(upTo: 1 << 20))
            let lines = text.split(separator: "\n")
            #expect(response.headers.first(name: "Content-Type") == "application/x-ndjson")
            #expect(lines.count == 4 && response.headers.first(name: "StoreKeeper-Next-Cursor") == next.nextCursor)
            #expect(
                try lines.map { try decoder.decode(ProjectEvent.self, from: Data($0.utf8)).id }
                    == (events + next.events).map(\.id))
        }
    }

    @Test("two servers on one PostgreSQL written at once: a reader of either misses no event and sees none twice")
    func twoReplicas() async throws {
        try await E2E.withTwoServers { h, first, second, _ in
            let decoder = APICoding.decoder()
            @Sendable func page(_ client: E2E.Client, after cursor: String?, limit: Int) async throws
                -> EventFeedResponse
            {
                let (status, _, body) = try await MetricsEndToEndTests.raw(
                    client.base, APIPath.eventFeed(after: cursor, limit: limit), key: E2E.secretKey)
                #expect(status == 200, "\(body)")
                return try decoder.decode(EventFeedResponse.self, from: Data(body.utf8))
            }
            // Each server takes its own customers' purchases, at the same time.
            let done = WritersDone()
            let writers = Task {
                defer { Task { await done.finish() } }
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for (index, client) in [first, second].enumerated() {
                        group.addTask {
                            for number in 0..<25 {
                                let status = try await client.buy(
                                    h, "premium.monthly", customer: "r\(index)-\(number)"
                                ).status
                                #expect(status == 200)
                            }
                        }
                    }
                    try await group.waitForAll()
                }
            }
            // Meanwhile a reader follows the second server's feed by cursor, small pages.
            var seen: [Int64] = []
            var cursor: String?
            var readWhileWriting = 0
            while await !done.finished {
                let next = try await page(second, after: cursor, limit: 7)
                if !next.events.isEmpty { readWhileWriting += 1 }
                seen += next.events.map(\.id)
                cursor = next.nextCursor
                if next.events.isEmpty { try await Task.sleep(for: .milliseconds(20)) }
            }
            try await writers.value
            while true {
                let next = try await page(second, after: cursor, limit: 50)
                if next.events.isEmpty { break }
                seen += next.events.map(\.id)
                cursor = next.nextCursor
            }
            let everything = try await page(first, after: nil, limit: 1_000).events.map(\.id)
            #expect(Set(seen).count == seen.count, "no event twice")
            #expect(seen == everything, "the same events, in the same commit order, as read afterwards")
            #expect(everything.count >= 50, "\(everything.count) events for 50 purchases")
            #expect(readWhileWriting >= 1, "the reader followed the feed while the servers wrote")
        }
    }

    @Test("secret key only; a cursor, limit or format that is not one is refused naming it")
    func refusals() async throws {
        try await E2E.withServers("sqlite") { _, client, _, _ in
            #expect(try await client.call(.GET, APIPath.eventFeed(), key: nil).0 == 401)
            #expect(try await client.call(.GET, APIPath.eventFeed(), key: E2E.publicKey).0 == 403)
            for (path, named) in [
                (APIPath.eventFeed(after: "12"), "after=\"12\""), (APIPath.eventFeed(after: "1-x"), "after=\"1-x\""),
                (APIPath.eventFeed(after: "-1-2"), "after="), (APIPath.eventFeed(limit: 0), "limit=\"0\""),
                (APIPath.eventFeed(limit: 1_001), "limit=\"1001\""),
                (APIPath.eventFeed(format: "csv"), "format=\"csv\""),
            ] {
                let (status, body) = try await client.call(.GET, path, key: E2E.secretKey)
                let message = ((body["error"] as? [String: Any])?["message"] as? String) ?? "\(body)"
                #expect(status == 400 && message.contains(named), "\(path): \(status) \(message)")
            }
        }
    }
}

/// Whether the writers of a spec are done (set once, read by the reader between pages).
private actor WritersDone {
    var finished = false
    func finish() { finished = true }
}
