import Foundation
import StoreKeeperStorage
import Testing

@testable import StoreKeeperServer

/// A dispatcher's deliveries wait in one queue per origin, sent by at most `width` lanes each (a connection
/// each): every delivery once, in the order taken, and one origin's queue never holds another's.
@Suite struct DeliveryQueuesTests {
    static func delivery(_ id: Int64, _ url: String) -> LeasedDelivery {
        LeasedDelivery(id: id, eventID: "e\(id)", body: "{}", url: url, secret: "whsec", attempts: 0)
    }

    @Test func eachOriginGetsAtMostWidthLanesAndItsOwnQueue() {
        let queues = DeliveryQueues(width: 8)
        let local = (0..<20).map { Self.delivery(Int64($0), "http://127.0.0.1:8080/hook") }
        let others = [
            Self.delivery(20, "https://hooks.example.com/a"), Self.delivery(21, "HTTPS://Hooks.Example.com/b"),
            Self.delivery(22, "http://127.0.0.1:8081/other"), Self.delivery(23, "not a url"),
        ]
        let started = queues.add(local + others, leaseEnds: .now + .seconds(60))
        #expect(started.filter { $0 == "http://127.0.0.1:8080" }.count == 8, "twenty deliveries, eight lanes")
        #expect(
            started.filter { $0 == "https://hooks.example.com:443" }.count == 2, "the same origin whatever the case")
        #expect(started.contains("http://127.0.0.1:8081") && started.contains("not a url"))
        #expect(queues.held == 24)
        var sent: [Int64] = []
        while let next = queues.next(for: "http://127.0.0.1:8080") { sent.append(next.delivery.id) }
        #expect(sent == Array(0..<20), "in the order taken")
        #expect(queues.lanes(to: "http://127.0.0.1:8080") == 7, "the lane that found the queue empty ended")
        #expect(queues.next(for: "https://hooks.example.com:443")?.url?.host == "hooks.example.com")
        #expect(queues.next(for: "not a url")?.url == nil, "a URL deliveries cannot go to keeps its own queue")
    }

    @Test func aSilentOriginsQueueIsDrainedAndANewDeliveryStartsALaneOnceTheLanesEnded() {
        let queues = DeliveryQueues(width: 2)
        let origin = "http://127.0.0.1:9000"
        #expect(queues.add((0..<5).map { Self.delivery($0, origin + "/h") }, leaseEnds: .now) == [origin, origin])
        _ = queues.next(for: origin)
        _ = queues.next(for: origin)
        #expect(queues.drain(origin).map(\.delivery.id) == [2, 3, 4])
        #expect(queues.next(for: origin) == nil && queues.next(for: origin) == nil)
        #expect(queues.lanes(to: origin) == 0)
        #expect(queues.add([Self.delivery(5, origin + "/h")], leaseEnds: .now) == [origin])
        #expect(queues.add([Self.delivery(6, origin + "/h")], leaseEnds: .now) == [origin])
        #expect(queues.add([Self.delivery(7, origin + "/h")], leaseEnds: .now).isEmpty, "two lanes already")
        queues.recorded(5)
        #expect(queues.held == 3)
        #expect(DeliveryQueues(width: 0).width == 1, "a width below one sends one at a time")
    }
}
