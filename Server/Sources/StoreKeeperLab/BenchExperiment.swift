import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import StoreKeeperAPI
import StoreKeeperCLI
import StoreKeeperServer
import StoreKeeperStorage

/// metrics-bench's experiment: two offerings and a running 50/50 experiment made over HTTP, `enrolments`
/// customers enrolled in it in bulk (the synthetic subscribers first, each a day before they subscribed; the rest
/// guests without evidence), and its results read once so the rollup is built before the timed reads.
struct BenchExperiment: Sendable {
    /// The experiment's identifier.
    static let identifier = "bench-price"
    /// Its results' path.
    static let resultsPath = APIEndpoint.getExperimentResults.path(identifier)
    /// Enrolments recorded per transaction.
    static let batch = 4_000

    let enrolments: Int
    let subscribers: Int
    let history: SyntheticHistory

    /// Makes the experiment and its enrolments unless they are there (a rerun on the same database); returns the
    /// seconds the first results read took (the rollup's build), `nil` when it was built before.
    func prepare(base: String, client: HTTPClient, store: any ExperimentStore, project: ProjectScope) async throws
        -> Double?
    {
        if try await call(client, .GET, base + APIPath.experiment(Self.identifier)).0 == 200 {
            FileHandleOutput.standardError("metrics-bench: experiment \(Self.identifier) already enrolled")
            return nil
        }
        for name in ["bench-control", "bench-cheaper"] {
            let body = #"{"identifier":"\#(name)","packages":[{"identifier":"m","product_id":"premium.monthly"}]}"#
            try await expect(
                201, call(client, .POST, base + APIPath.offerings, body), "\(APIEndpoint.postOffering) \(name)")
        }
        let experiment = """
            {"identifier": "\(Self.identifier)", "variants": [
              {"identifier": "a", "offering_id": "bench-control", "weight": 50},
              {"identifier": "b", "offering_id": "bench-cheaper", "weight": 50}]}
            """
        try await expect(
            201, call(client, .POST, base + APIPath.experiments, experiment), "\(APIEndpoint.postExperiment)")
        try await expect(
            200, call(client, .POST, base + APIEndpoint.startExperiment.path(Self.identifier)),
            "starting the experiment")
        let progress = ProgressLine(label: "enrolling", unit: "customers", total: enrolments)
        for start in stride(from: 0, to: enrolments, by: Self.batch) {
            let records = (start..<min(enrolments, start + Self.batch)).map { enrolment($0, project: project) }
            _ = try await store.enrol(all: records)
            for _ in records { progress.advance() }
        }
        progress.finish()
        let clock = ContinuousClock()
        let began = clock.now
        try await expect(200, call(client, .GET, base + Self.resultsPath), "the first results read")
        let took = clock.now - began
        return Double(took.components.seconds) + Double(took.components.attoseconds) / 1e18
    }

    /// Enrolment `number`: synthetic subscriber `number` a day before their first purchase, or a guest.
    func enrolment(_ number: Int, project: ProjectScope) -> EnrolmentRecord {
        let user: String
        let at: Date
        if number < subscribers {
            user = SyntheticHistory.customerID(number)
            let first = history.customer(number).evidence.transactions.compactMap(\.purchaseDate).min()
            at = (first ?? history.end).addingTimeInterval(-86_400)
        } else {
            user = "bench-guest-\(number)"
            at = history.end.addingTimeInterval(-Double(number % 365) * 86_400)
        }
        return EnrolmentRecord(
            projectID: project.id, experiment: Self.identifier, appUserKey: project.key(user),
            variant: number % 2 == 0 ? "a" : "b", enrolledAt: at)
    }

    /// One call with the demo's secret key: its status and body.
    func call(_ client: HTTPClient, _ method: HTTPMethod, _ url: String, _ body: String? = nil) async throws
        -> (Int, String)
    {
        var request = HTTPClientRequest(url: url)
        request.method = method
        request.headers.add(name: "Authorization", value: "Bearer \(ServerConfiguration.demoSecretKey)")
        if let body { request.body = .bytes(ByteBuffer(string: body)) }
        let response = try await client.execute(request, timeout: .seconds(3_600))
        return (Int(response.status.code), String(buffer: try await response.body.collect(upTo: 1 << 22)))
    }

    func expect(_ status: Int, _ answer: (Int, String), _ what: String) throws {
        guard answer.0 == status else {
            throw CommandFailure("\(what) answered \(answer.0), not \(status): \(answer.1.prefix(300))")
        }
    }
}
