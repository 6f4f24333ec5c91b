import Foundation
import Testing

@testable import StoreKeeperServer

/// A delivery round sends each origin's deliveries over at most `width` lanes (a connection each), every delivery
/// exactly once and in the order taken within its lane.
@Suite struct WebhookDispatcherTests {
    @Test func aRoundIsSplitIntoLanesOfAtMostTheWidthPerOrigin() {
        let urls =
            (0..<20).map { _ in "http://127.0.0.1:8080/hook" } + [
                "https://hooks.example.com/a", "HTTPS://Hooks.Example.com/b",
            ]
            + ["http://127.0.0.1:8081/other", "not a url"]
        let origins = urls.map { WebhookURL($0)?.origin ?? $0 }
        let lanes = WebhookDispatcher.lanes(origins, width: 8)
        #expect(lanes.flatMap { $0 }.sorted() == Array(urls.indices), "every delivery once")
        for lane in lanes { #expect(lane == lane.sorted(), "a lane keeps the order deliveries were taken in") }
        let local = lanes.filter { $0.allSatisfy { $0 < 20 } }
        #expect(local.count == 8, "twenty deliveries to one origin go out eight at a time")
        #expect(local.map(\.count).sorted() == [2, 2, 2, 2, 3, 3, 3, 3])
        #expect(lanes.contains([20]) && lanes.contains([21]) && lanes.contains([22]) && lanes.contains([23]))
        let single = WebhookDispatcher.lanes(origins, width: 1)
        #expect(single.contains([20, 21]), "the same origin whatever the case of scheme and host")
        #expect(single.contains([22]), "another port is another origin")
        #expect(single.count == 4)
        #expect(WebhookDispatcher.lanes(origins, width: 0) == single, "a width below one sends one at a time")
        #expect(WebhookDispatcher.lanes([], width: 8).isEmpty)
    }
}
