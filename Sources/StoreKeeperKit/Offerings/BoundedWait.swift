import Foundation

/// Waits for work at most so long: the work goes on after the wait ends (its result can still be kept), but the
/// caller is answered in time.
enum BoundedWait {
    /// The value of `task`, or `nil` once `seconds` pass first.
    static func value<T: Sendable>(of task: Task<T, any Error>, within seconds: TimeInterval) async throws -> T? {
        let once = ResumeOnce<T?>()
        return try await withCheckedThrowingContinuation { continuation in
            once.set(continuation)
            let timer = Task {
                // Cancelled only once the work has answered: then the bound has not passed, and says nothing.
                do { try await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1_000_000_000)) } catch { return }
                once.resume(with: .success(nil))
            }
            Task {
                let result = await task.result
                once.resume(with: result.map { $0 })
                timer.cancel()
            }
        }
    }
}

/// A continuation resumed by whichever of its racers finishes first (the others are ignored).
final class ResumeOnce<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<T, any Error>?
    private var early: Result<T, any Error>?

    func set(_ continuation: CheckedContinuation<T, any Error>) {
        lock.lock()
        if let early {
            lock.unlock()
            continuation.resume(with: early)
            return
        }
        self.continuation = continuation
        lock.unlock()
    }

    func resume(with result: Result<T, any Error>) {
        lock.lock()
        guard let continuation else {
            if early == nil { early = result }
            lock.unlock()
            return
        }
        self.continuation = nil
        early = result
        lock.unlock()
        continuation.resume(with: result)
    }
}
