import Synchronization

/// Groups concurrent writes so that several commit in one database transaction (group commit).
///
/// At most `workers` groups run at once. A write that arrives while one is free starts a group of its own at
/// once, so an idle server adds no delay; writes that arrive while every worker is busy wait in arrival order
/// and leave together, up to `largestGroup` at a time, with the next free worker. Each caller resumes with its
/// own write's result, only after the group that carried it finished.
public final class ApplyQueue<Item: Sendable, Output: Sendable>: Sendable {
    /// Runs one group: for every item, in order, its result or the error that failed it alone.
    public typealias Runner = @Sendable ([Item]) async -> [Result<Output, any Error>]

    struct Waiting {
        var item: Item
        var continuation: CheckedContinuation<Output, any Error>
    }

    struct State {
        var waiting: [Waiting] = []
        var running = 0
        var groups = 0
        var largest = 0
    }

    let workers: Int
    let largestGroup: Int
    let runner: Runner
    private let state = Mutex(State())

    /// Makes a queue.
    /// - Parameters:
    ///   - workers: How many groups may run at once (at least 1).
    ///   - largestGroup: The most items one group carries (at least 1).
    ///   - runner: Runs a group.
    public init(workers: Int, largestGroup: Int, runner: @escaping Runner) {
        self.workers = max(1, workers)
        self.largestGroup = max(1, largestGroup)
        self.runner = runner
    }

    /// Queues `item` and waits until the group that carried it ran.
    /// - Parameter item: The write.
    /// - Returns: Its result.
    /// - Throws: Whatever failed it.
    public func submit(_ item: Item) async throws -> Output {
        try await withCheckedThrowingContinuation { continuation in
            let startWorker = state.withLock { state -> Bool in
                state.waiting.append(Waiting(item: item, continuation: continuation))
                guard state.running < workers else { return false }
                state.running += 1
                return true
            }
            if startWorker { Task { await self.work() } }
        }
    }

    /// How many writes wait for a worker.
    public var pending: Int {
        state.withLock { $0.waiting.count }
    }

    /// How many groups ran, and the most items one of them carried.
    public var statistics: (groups: Int, largest: Int) {
        state.withLock { ($0.groups, $0.largest) }
    }

    private func work() async {
        while let group = nextGroup() {
            let results = await runner(group.map(\.item))
            for (index, waiting) in group.enumerated() {
                if index < results.count {
                    waiting.continuation.resume(with: results[index])
                } else {
                    waiting.continuation.resume(throwing: CancellationError())
                }
            }
        }
    }

    /// The next group, or `nil` (and one worker fewer) when nothing waits.
    private func nextGroup() -> [Waiting]? {
        state.withLock { state in
            guard !state.waiting.isEmpty else {
                state.running -= 1
                return nil
            }
            let count = min(largestGroup, state.waiting.count)
            let group = Array(state.waiting.prefix(count))
            state.waiting.removeFirst(count)
            state.groups += 1
            state.largest = max(state.largest, count)
            return group
        }
    }
}
