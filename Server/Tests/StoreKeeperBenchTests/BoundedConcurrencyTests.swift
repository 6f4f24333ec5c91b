import StoreKeeperBench
import Synchronization
import Testing

/// The seeding window: every numbered task runs once, never more than `width` at a time.
@Suite struct BoundedConcurrencyTests {
    final class Gauge: Sendable {
        let state = Mutex((running: 0, most: 0))
        func enter() {
            state.withLock {
                $0.running += 1; $0.most = max($0.most, $0.running)
            }
        }
        func leave() { state.withLock { $0.running -= 1 } }
    }

    @Test("runs each task once, at most width at a time", arguments: [(0, 4), (1, 4), (10, 3), (50, 1), (7, 100)])
    func window(count: Int, width: Int) async throws {
        let gauge = Gauge()
        var seen: [Int] = []
        try await BoundedConcurrency.forEach(count, width: width) { index -> Int in
            gauge.enter()
            try await Task.sleep(for: .milliseconds(2))
            gauge.leave()
            return index
        } collect: {
            seen.append($0)
        }
        #expect(seen.sorted() == Array(0..<count))
        #expect(gauge.state.withLock { $0.most } <= max(1, width))
    }

    struct Refused: Error {}

    @Test("a task's error ends the run with that error")
    func failure() async {
        await #expect(throws: Refused.self) {
            try await BoundedConcurrency.forEach(20, width: 4) { index -> Int in
                if index == 5 { throw Refused() }
                return index
            } collect: { _ in
            }
        }
    }
}
