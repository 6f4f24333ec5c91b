import Foundation
import Testing

@testable import AppStoreSimulator

/// The order the simulated world happens in: earliest due first, and by original transaction id at the same instant.
@Suite struct DueEventQueueTests {
    @Test("pops every event in (due, original transaction id) order, whatever order they were pushed in")
    func order() {
        var generator = SystemRandomNumberGenerator()
        let base = Date(timeIntervalSince1970: 1_767_225_600)
        // Few distinct instants, so many events share one and the id decides.
        let entries = (0..<500).map { (index: Int) -> DueEventQueue.Entry in
            let id = 1000 + index * 37 % 500
            return DueEventQueue.Entry(due: base.addingTimeInterval(Double(index % 7)), originalTransactionID: String(id))
        }
        var queue = DueEventQueue()
        for entry in entries.shuffled(using: &generator) { queue.push(entry) }
        var popped: [DueEventQueue.Entry] = []
        while let entry = queue.popFirst() { popped.append(entry) }
        #expect(popped == entries.sorted())
        #expect(queue.isEmpty && queue.popFirst() == nil)
    }

    @Test("events pushed while popping still come out in order")
    func interleaved() {
        let base = Date(timeIntervalSince1970: 0)
        var queue = DueEventQueue()
        for id in ["c", "a", "b"] { queue.push(.init(due: base, originalTransactionID: id)) }
        #expect(queue.popFirst()?.originalTransactionID == "a")
        queue.push(.init(due: base.addingTimeInterval(-1), originalTransactionID: "z"))
        queue.push(.init(due: base.addingTimeInterval(5), originalTransactionID: "a"))
        #expect(
            [queue.popFirst(), queue.popFirst(), queue.popFirst(), queue.popFirst()].map { $0?.originalTransactionID }
                == ["z", "b", "c", "a"])
    }
}
