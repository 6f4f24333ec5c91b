import Foundation
import StoreKeeperAPI
import StoreKeeperKit
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A real `storekeeper serve` on loopback with its in-process App Store on a manual clock (a sandbox month is an
/// hour), for the SDK to run against as an app would.
struct KitServer: Sendable {
    static let bundleID = "com.example.storekeeper.demo"
    static let publicKey = "pk_demo_storekeeper_public"
    /// Nothing listens here: a server that cannot be reached.
    static let unreachable = URL(string: "http://127.0.0.1:9")!

    let base: URL

    /// Runs `body` with a fresh server in a scratch directory.
    /// - Parameter configuration: A configuration file's JSON (written readable by its owner only), or `nil`.
    static func with(configuration: String? = nil, _ body: @Sendable (KitServer) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var arguments = ["serve", "--port", "0", "--simulator-clock", "manual", "--simulator-rate", "1h"]
        if let configuration {
            try configuration.writePrivately(to: directory.appendingPathComponent("config.json"))
            arguments += ["--config", "config.json"]
        }
        let server = try await BackgroundCommand(arguments, in: directory)
        defer { server.stop() }
        try await body(KitServer(base: URL(string: server.baseURL)!))
    }

    /// A device of `customer`.
    func store(_ customer: String) -> SimulatorStore {
        SimulatorStore(
            simulatorURL: base, bundleID: Self.bundleID, customerID: customer, updateInterval: 0.2)
    }

    /// An app launch: a new client over the device's store, persistence and clock.
    func launch(
        _ store: SimulatorStore, _ persistence: InMemoryPersistence, _ clock: TestDeviceClock, server: URL? = nil
    ) -> StoreKeeper {
        StoreKeeper(
            configuration: .init(serverURL: server ?? base, apiKey: Self.publicKey), store: store,
            persistence: persistence, clock: clock)
    }

    /// Moves the shared clock (simulator and server) and the device's on by `seconds`.
    func advance(_ seconds: TimeInterval, device clock: TestDeviceClock) async throws {
        let (status, _) = try await call("POST", "/simulator/v1/clock/advance", body: ["seconds": seconds])
        #expect(status == 200)
        clock.pass(seconds)
    }

    /// Refunds a transaction at the App Store (its notification reaches the server).
    func refund(_ transactionID: String) async throws {
        let (status, _) = try await call("POST", "/simulator/v1/transactions/\(transactionID)/refund", body: [:])
        #expect(status == 200)
    }

    /// The server's document of a subscriber, read with the public key.
    func subscriber(_ appUserID: String) async throws -> Subscriber {
        var request = URLRequest(url: URL(string: base.absoluteString + APIPath.subscriber(appUserID))!)
        request.setValue("Bearer \(Self.publicKey)", forHTTPHeaderField: "Authorization")
        let (_, data) = try await Self.exchange(request)
        return try APICoding.decoder().decode(SubscriberResponse.self, from: data).subscriber
    }

    func call(_ method: String, _ path: String, body: [String: Any], key: String? = nil) async throws -> (
        Int, [String: Any]
    ) {
        var request = URLRequest(url: URL(string: base.absoluteString + path)!)
        request.httpMethod = method
        if let key { request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization") }
        request.httpBody = try JSONSerialization.data(withJSONObject: body)
        let (status, data) = try await Self.exchange(request)
        return (status, (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:])
    }

    /// One request through `URLSession`'s completion-handler form.
    static func exchange(_ request: URLRequest) async throws -> (Int, Data) {
        try await withCheckedThrowingContinuation { continuation in
            URLSession.shared.dataTask(with: request) { data, response, error in
                if let error { return continuation.resume(throwing: error) }
                continuation.resume(returning: ((response as? HTTPURLResponse)?.statusCode ?? 0, data ?? Data()))
            }.resume()
        }
    }
}
