import Foundation
import HeapModule
import Testing

@testable import AppStoreSimulator

/// The order the simulated world happens in: earliest due first, and by original transaction id at the same instant.
@Suite struct DueEventTests {
    @Test("a heap of due events pops them in (due, original transaction id) order, whatever order they were pushed in")
    func order() {
        var generator = SystemRandomNumberGenerator()
        let base = Date(timeIntervalSince1970: 1_767_225_600)
        // Few distinct instants, so many events share one and the id decides.
        let entries = (0..<500).map { (index: Int) -> DueEvent in
            let id = 1000 + index * 37 % 500
            return DueEvent(due: base.addingTimeInterval(Double(index % 7)), originalTransactionID: String(id))
        }
        var queue = Heap<DueEvent>()
        for entry in entries.shuffled(using: &generator) { queue.insert(entry) }
        var popped: [DueEvent] = []
        while let entry = queue.popMin() { popped.append(entry) }
        #expect(popped == entries.sorted())
        #expect(queue.isEmpty && queue.popMin() == nil)
    }

    @Test("events pushed while popping still come out in order")
    func interleaved() {
        let base = Date(timeIntervalSince1970: 0)
        var queue = Heap<DueEvent>()
        for id in ["c", "a", "b"] { queue.insert(DueEvent(due: base, originalTransactionID: id)) }
        #expect(queue.popMin()?.originalTransactionID == "a")
        queue.insert(DueEvent(due: base.addingTimeInterval(-1), originalTransactionID: "z"))
        queue.insert(DueEvent(due: base.addingTimeInterval(5), originalTransactionID: "a"))
        #expect(
            [queue.popMin(), queue.popMin(), queue.popMin(), queue.popMin()].map { $0?.originalTransactionID }
                == ["z", "b", "c", "a"])
    }
}
