import AppStoreSimulator
import AsyncHTTPClient
import Foundation
import NIOCore

/// One Retention Messaging performance test, as the simulator runs it: its requests sent to the real-time URL a few
/// at a time, each a success when answered HTTP 200 within the threshold, the result in Apple's
/// `PerformanceTestResultResponse` shape (`PASS` when the success rate reaches the threshold).
struct PerformanceTestRun: Sendable {
    /// Requests sent.
    static let totalRequests = 20
    /// Requests in flight at once.
    static let maximumConcurrentRequests = 4
    /// The longest answer that counts, in milliseconds (Apple's real-time bound).
    static let responseTimeThreshold = 700
    /// The success rate, in percent, a passing test reaches.
    static let successRateThreshold = 90

    /// Apple's `PerformanceTestConfig`.
    static var config: [String: Any] {
        [
            "maxConcurrentRequests": maximumConcurrentRequests, "totalRequests": totalRequests,
            "totalDuration": totalRequests * responseTimeThreshold, "responseTimeThreshold": responseTimeThreshold,
            "successRateThreshold": successRateThreshold,
        ]
    }

    let url: String
    let bodies: [Data]

    /// Sends every request and returns the result's JSON.
    func run() async -> Data {
        var times: [Int] = []
        var failures: [String: Int] = [:]
        var next = 0
        await withTaskGroup(of: (Int, String?).self) { group in
            func add() {
                guard next < bodies.count else { return }
                let body = bodies[next]
                next += 1
                group.addTask { await Self.send(body, to: url) }
            }
            for _ in 0..<Self.maximumConcurrentRequests { add() }
            for await (milliseconds, failure) in group {
                times.append(milliseconds)
                if let failure { failures[failure, default: 0] += 1 }
                add()
            }
        }
        let sorted = times.sorted()
        func percentile(_ p: Double) -> Int {
            sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)]
        }
        let succeeded = times.count - failures.values.reduce(0, +)
        let rate = times.isEmpty ? 0 : succeeded * 100 / times.count
        let result: [String: Any] = [
            "config": Self.config, "target": url, "result": rate >= Self.successRateThreshold ? "PASS" : "FAIL",
            "successRate": rate, "numPending": 0, "failures": failures,
            "responseTimes": [
                "average": times.isEmpty ? 0 : times.reduce(0, +) / times.count, "p50": percentile(0.5),
                "p90": percentile(0.9), "p95": percentile(0.95), "p99": percentile(0.99),
            ],
        ]
        return (try? JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])) ?? Data()
    }

    /// One request: its time in milliseconds, and Apple's failure reason when it failed.
    static func send(_ body: Data, to url: String) async -> (Int, String?) {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: body))
        let started = ContinuousClock.now
        func elapsed() -> Int {
            let time = ContinuousClock.now - started
            return Int(time.components.seconds * 1_000 + time.components.attoseconds / 1_000_000_000_000_000)
        }
        do {
            let response = try await HTTPClient.shared.execute(
                request, timeout: .milliseconds(Int64(responseTimeThreshold)))
            _ = try await response.body.collect(upTo: 1 << 20)
            return (elapsed(), response.status.code == 200 ? nil : "UNSUCCESSFUL_HTTP_RESPONSE_CODE")
        } catch {
            return (elapsed(), "TIMED_OUT")
        }
    }
}
