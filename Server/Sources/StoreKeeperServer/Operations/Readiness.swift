import Foundation
import Hummingbird
import StoreKeeperStorage

/// `GET /ready`: whether this process should receive traffic — the database answers, its schema is the one
/// this build needs, and the background workers run. 200 `{"status":"ready"}`, or 503 with the reasons.
struct Readiness: Sendable {
    let store: any SchemaStore
    let gate: StartupGate?

    /// The reasons the server is not ready (empty: ready).
    func problems() async -> [String] {
        var problems: [String] = []
        do {
            let version = try await store.appliedSchemaVersion()
            if version != SQLStore.schemaVersion {
                problems.append("the database schema is version \(version); this build needs \(SQLStore.schemaVersion)")
            }
        } catch {
            problems.append("the database does not answer")
        }
        if let gate, !gate.isOpen { problems.append("the background workers have not started") }
        return problems
    }

    func response() async throws -> Response {
        let problems = await problems()
        let body: [String: Any] =
            problems.isEmpty ? ["status": "ready"] : ["status": "not_ready", "problems": problems]
        return Response(
            status: problems.isEmpty ? .ok : .serviceUnavailable, headers: [.contentType: "application/json"],
            body: ResponseBody(
                byteBuffer: ByteBuffer(
                    bytes: try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys]))))
    }
}
