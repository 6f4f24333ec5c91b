import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Testing

/// Calls a `storekeeper serve` over HTTP without blocking a thread of the test run's small pool (a blocking `curl`
/// there stalls every other test that waits on a loopback server in this process).
struct ServeClient: Sendable {
    let base: String

    /// The status and body of one call.
    func call(_ method: HTTPMethod, _ path: String, key: String? = "pk_demo_storekeeper_public", body: String? = nil)
        async throws -> (Int, String)
    {
        var request = HTTPClientRequest(url: base + path)
        request.method = method
        if let key { request.headers.add(name: "Authorization", value: "Bearer \(key)") }
        if let body { request.body = .bytes(ByteBuffer(string: body)) }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 16 << 20)
        return (Int(response.status.code), String(buffer: bytes))
    }

    /// Buys the monthly plan for `customer` in the simulator and posts the receipt; returns the subscriber JSON.
    func subscribe(_ customer: String) async throws -> [String: Any] {
        let (bought, _) = try await call(
            .POST, "/simulator/v1/purchases", key: nil,
            body:
                #"{"bundleID":"com.example.storekeeper.demo","productID":"premium.monthly","customerID":"\#(customer)"}"#
        )
        #expect(bought == 201)
        let (_, receiptJSON) = try await call(
            .GET, "/simulator/v1/apps/com.example.storekeeper.demo/receipt?customerID=\(customer)", key: nil)
        let receipt = try #require(
            (try JSONSerialization.jsonObject(with: Data(receiptJSON.utf8)) as? [String: Any])?["receipt"] as? String)
        let (posted, document) = try await call(
            .POST, "/v1/receipts", body: #"{"app_user_id":"\#(customer)","receipt":"\#(receipt)"}"#)
        #expect(posted == 200, "\(document)")
        return try #require(try JSONSerialization.jsonObject(with: Data(document.utf8)) as? [String: Any])
    }
}
