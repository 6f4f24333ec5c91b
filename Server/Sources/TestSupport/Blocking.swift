import Foundation

/// Runs blocking work — a child process to wait for, such as `initdb` — on a thread of its own. The test process's
/// cooperative threads are as many as the cores (two here); each one a test blocks for seconds stops every other
/// test's tasks, servers and timers in that process meanwhile.
public enum Blocking {
    /// Runs `work` on a new thread and returns what it returns.
    public static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }
}
