/// Runs numbered tasks a few at a time: the one place the commands that seed or load a server keep a window of
/// `width` tasks in flight, starting the next as each finishes.
public enum BoundedConcurrency {
    /// Runs `task(0)`…`task(count - 1)`, at most `width` at once, and hands each result to `collect` (on the
    /// caller's task, in the order they finish).
    /// - Throws: The first error a task throws (the others are cancelled), or one `collect` throws.
    public static func forEach<Result: Sendable>(
        _ count: Int, width: Int, _ task: @escaping @Sendable (Int) async throws -> Result,
        collect: (Result) throws -> Void
    ) async throws {
        try await withThrowingTaskGroup(of: Result.self) { group in
            var next = 0
            while next < min(count, max(1, width)) {
                let index = next
                group.addTask { try await task(index) }
                next += 1
            }
            while let result = try await group.next() {
                try collect(result)
                if next < count {
                    let index = next
                    group.addTask { try await task(index) }
                    next += 1
                }
            }
        }
    }
}
