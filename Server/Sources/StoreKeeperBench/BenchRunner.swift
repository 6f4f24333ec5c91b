import Foundation

/// One measured operation.
public struct BenchResult: Sendable {
    /// What was measured.
    public let name: String
    /// Operations a second.
    public let opsPerSecond: Double
    /// Microseconds an operation.
    public var microsecondsPerOp: Double { 1_000_000 / opsPerSecond }

    /// Makes a result.
    public init(name: String, opsPerSecond: Double) {
        self.name = name
        self.opsPerSecond = opsPerSecond
    }
}

/// Runs an operation repeatedly for a fixed time, after a warm-up, and reports its rate.
public struct BenchRunner: Sendable {
    /// How long each measurement runs, after its warm-up.
    public let seconds: Double

    /// Makes a runner.
    /// - Parameter seconds: How long each measurement runs.
    public init(seconds: Double) { self.seconds = seconds }

    /// Runs `body` for ``seconds`` after 50 warm-up calls.
    public func measure(_ name: String, _ body: () -> Void) -> BenchResult {
        // Swift closures cannot be both throwing-generic and cheap here; the non-throwing path stays direct.
        for _ in 0..<50 { body() }
        let clock = ContinuousClock()
        let start = clock.now
        var count = 0
        var elapsed: Duration = .zero
        repeat {
            for _ in 0..<32 { body() }
            count += 32
            elapsed = clock.now - start
        } while elapsed < .milliseconds(Int(seconds * 1000))
        return BenchResult(name: name, opsPerSecond: Double(count) / Self.seconds(elapsed))
    }

    /// ``measure(_:_:)`` for a body that may throw (the first error is rethrown after the run).
    public func measureThrowing(_ name: String, _ body: () throws -> Void) throws -> BenchResult {
        var failure: (any Error)?
        let result = measure(name) {
            do { try body() } catch { failure = error }
        }
        if let failure { throw failure }
        return result
    }

    /// ``measure(_:_:)`` for an asynchronous body.
    public func measureAsync(_ name: String, _ body: () async throws -> Void) async throws -> BenchResult {
        for _ in 0..<50 { try await body() }
        let clock = ContinuousClock()
        let start = clock.now
        var count = 0
        var elapsed: Duration = .zero
        repeat {
            for _ in 0..<32 { try await body() }
            count += 32
            elapsed = clock.now - start
        } while elapsed < .milliseconds(Int(seconds * 1000))
        return BenchResult(name: name, opsPerSecond: Double(count) / Self.seconds(elapsed))
    }

    /// A duration in seconds.
    public static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
