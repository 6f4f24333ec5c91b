import StoreKeeperStorage
import Synchronization
import Testing

/// The queue behind group commit: idle writes leave at once, writes that arrive while every worker is busy
/// leave together, and every caller gets its own result.
@Suite struct ApplyQueueTests {
    /// A runner that records the groups it ran and holds each one until released.
    final class Runner: Sendable {
        let groups = Mutex<[[Int]]>([])
        let gate = Mutex<[CheckedContinuation<Void, Never>]>([])
        let holds: Bool
        init(holds: Bool) { self.holds = holds }

        func run(_ items: [Int]) async -> [Result<String, any Error>] {
            groups.withLock { $0.append(items) }
            if holds { await withCheckedContinuation { continuation in gate.withLock { $0.append(continuation) } } }
            return items.map { $0 < 0 ? .failure(Refused(item: $0)) : .success("done \($0)") }
        }

        func releaseAll() {
            for continuation in gate.withLock({ gate in
                defer { gate = [] }; return gate
            }) { continuation.resume() }
        }
        var waiting: Int { gate.withLock { $0.count } }
    }

    struct Refused: Error, Equatable { var item: Int }

    /// The queue never reached the state the test waits for.
    struct Stuck: Error, CustomStringConvertible {
        var waitingFor: String
        var description: String { "gave up after 10 s waiting for \(waitingFor)" }
    }

    /// Yields (doing `step` each time) until `condition` holds; fails after 10 s instead of hanging the suite.
    func wait(for what: String, step: () -> Void = {}, until condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition() {
            guard ContinuousClock.now < deadline else { throw Stuck(waitingFor: what) }
            step()
            await Task.yield()
        }
    }

    @Test("a write on an idle queue runs at once, alone")
    func idle() async throws {
        let runner = Runner(holds: false)
        let queue = ApplyQueue<Int, String>(workers: 2, largestGroup: 8) { await runner.run($0) }
        #expect(try await queue.submit(1) == "done 1")
        #expect(try await queue.submit(2) == "done 2")
        #expect(runner.groups.withLock { $0 } == [[1], [2]])
        #expect(queue.statistics.largest == 1)
    }

    @Test("writes that arrive while the worker is busy leave together, in arrival order, each with its own result")
    func grouping() async throws {
        let runner = Runner(holds: true)
        let queue = ApplyQueue<Int, String>(workers: 1, largestGroup: 3) { await runner.run($0) }
        let first = Task { try await queue.submit(0) }
        try await wait(for: "the first write to run") { runner.waiting > 0 }
        // The one worker is busy with [0]: the next five wait, then leave as [1, 2, 3] and [4, 5].
        var later: [Task<String, any Error>] = []
        for item in 1...5 {
            later.append(Task { try await queue.submit(item) })
            try await wait(for: "write \(item) to queue") { queue.pending >= item }
        }
        runner.releaseAll()
        #expect(try await first.value == "done 0")
        try await wait(for: "three groups", step: runner.releaseAll) { runner.groups.withLock { $0.count } >= 3 }
        runner.releaseAll()
        for (index, task) in later.enumerated() { #expect(try await task.value == "done \(index + 1)") }
        #expect(runner.groups.withLock { $0 } == [[0], [1, 2, 3], [4, 5]])
        #expect(queue.statistics.groups == 3 && queue.statistics.largest == 3)
    }

    @Test("one write's failure reaches only its caller")
    func failures() async throws {
        let runner = Runner(holds: false)
        let queue = ApplyQueue<Int, String>(workers: 1, largestGroup: 4) { await runner.run($0) }
        await #expect(throws: Refused(item: -1)) { try await queue.submit(-1) }
        #expect(try await queue.submit(7) == "done 7")
    }
}
