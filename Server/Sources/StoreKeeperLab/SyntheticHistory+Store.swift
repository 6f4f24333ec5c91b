import Foundation
import StoreKeeperBench
import StoreKeeperCLI
import StoreKeeperStorage

/// Storing a synthetic population through the store's write path (the benchmarks' seeding).
extension SyntheticHistory {
    /// Stores customers `0..<count` of this history in `project`, `concurrency` writes at a time, with progress on
    /// standard error; skipped when the last customer is already stored (a rerun on the same database).
    /// - Returns: Whether it stored them (`false`: they were there).
    func store(
        _ count: Int, into store: any Store, project: ProjectScope, bundleID: String, policy: TransferPolicy,
        concurrency: Int, command: String
    ) async throws -> Bool {
        if try await store.snapshot(Self.customerID(count - 1), in: project) != nil {
            FileHandleOutput.standardError("\(command): \(count) subscribers already stored")
            return false
        }
        let progress = ProgressLine(label: "storing", unit: "subscribers", total: count)
        let history = self
        try await BoundedConcurrency.forEach(count, width: concurrency) { number in
            let (original, evidence) = history.customer(number)
            _ = try await store.apply(
                EvidenceWrite(
                    project: project, bundleID: bundleID, appUserID: Self.customerID(number), kind: "synthetic",
                    rawBody: "{\"synthetic\":\(number),\"seed\":\(history.seed)}", evidence: evidence,
                    originalTransactionIDs: [original], cause: .imported, eventType: "synthetic_history"),
                policy: policy, now: Date())
        } collect: { _ in
            progress.advance()
        }
        progress.finish()
        return true
    }
}
