import AppStoreClient
import AppStoreModels
import ArgumentParser
import Foundation

/// `storekeeper retention test`: runs Apple's sandbox performance test of the real-time URL and prints its result.
struct RetentionTestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run Apple's sandbox performance test against the configured real-time URL and print its result.",
        discussion:
            "Apple sends a batch of real-time requests about the subscription of --original-transaction-id; the "
            + "test passes when enough are answered in time. Production's URL can be set only after a pass. Exit 1 "
            + "on FAIL, naming the failures.")

    @Option(help: "The server's configuration file (the app's credentials, Apple's URLs).") var config: String
    @Option(help: "The app.") var bundleID: String
    @Option(help: "A sandbox subscription of the app to ask about.") var originalTransactionId: String
    @Option(help: "Seconds to wait for the result.") var timeout: Double = 120

    func run() async throws {
        let (client, credentials) = try RetentionCommand.client(config: config, bundleID: bundleID)
        let result: PerformanceTestResult
        do {
            let requestID = try await client.initiatePerformanceTest(
                originalTransactionID: originalTransactionId, credentials: credentials)
            let deadline = ContinuousClock.now + .seconds(timeout)
            var latest = try await client.performanceTestResult(requestID: requestID, credentials: credentials)
            while latest.result == "PENDING", ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(500))
                latest = try await client.performanceTestResult(requestID: requestID, credentials: credentials)
            }
            result = latest
        } catch let error as AppStoreClientError {
            throw CommandFailure("Apple refused: \(error.reason)")
        }
        let times = result.responseTimes
        let failures = (result.failures ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        FileHandleOutput.standardOutput(
            "performance test \(result.result ?? "?"): success \(result.successRate ?? 0) % against "
                + "\(result.target ?? "?"); average \(times?.average ?? 0) ms, p90 \(times?.p90 ?? 0) ms, "
                + "p99 \(times?.p99 ?? 0) ms"
                + (failures.isEmpty ? "" : "; failures: " + failures.joined(separator: ", ")))
        guard result.result == "PASS" else { throw CommandFailure("the performance test did not pass") }
    }
}
