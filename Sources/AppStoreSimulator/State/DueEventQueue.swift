import Foundation

/// The subscriptions with something due (a renewal, a grace or retry end), earliest first and, at the same
/// instant, by original transaction id: the order the simulated world happens in.
///
/// A binary min-heap, so catching up after a long pause costs one pass over the subscriptions plus a
/// logarithmic step per event, instead of a pass over every subscription for every event.
struct DueEventQueue {
    /// One due event.
    struct Entry: Comparable {
        var due: Date
        var originalTransactionID: String

        static func < (lhs: Entry, rhs: Entry) -> Bool {
            (lhs.due, lhs.originalTransactionID) < (rhs.due, rhs.originalTransactionID)
        }
    }

    private var heap: [Entry] = []

    /// Whether nothing is due.
    var isEmpty: Bool { heap.isEmpty }

    /// Adds an event.
    mutating func push(_ entry: Entry) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child] < heap[parent] else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the earliest event, or `nil` when none is left.
    mutating func popFirst() -> Entry? {
        guard !heap.isEmpty else { return nil }
        heap.swapAt(0, heap.count - 1)
        let first = heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < heap.count, heap[left] < heap[smallest] { smallest = left }
            if right < heap.count, heap[right] < heap[smallest] { smallest = right }
            guard smallest != parent else { break }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
        return first
    }
}
