import Foundation
import TestSupport
import Testing

extension ServeClient {
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
