import Foundation
import StoreKeeperAPI
import StoreKeeperKit
import TestSupport
import Testing

/// "Manage subscription" and "Request a refund" through the SDK against a real `storekeeper serve`, with the
/// simulator store playing Apple's sheets: what the customer does there reaches the server as Apple's
/// notifications, and the SDK's next answer shows it.
@Suite(.timeLimit(.minutes(3))) struct ManagementTests {
    @Test("the management page: cancelling there turns auto-renewal off; managementURL is Apple's page")
    func manage() async throws {
        try await KitServer.with { server in
            let store = server.store("mia")
            let clock = TestDeviceClock()
            let kit = server.launch(store, InMemoryPersistence(), clock)
            #expect(try await kit.start().managementURL == nil, "no subscription, nothing to manage")
            guard case .purchased(let bought) = try await kit.purchase(productID: "basic.monthly") else {
                Issue.record("not purchased")
                return
            }
            #expect(bought.managementURL == CustomerInfo.appStoreManagementURL)
            #expect(bought.entitlements["basic"]?.willRenew == true)
            // The customer opens the page a minute later (Apple's clock moves on; a change at the purchase's very
            // instant would be ordered with it).
            try await server.advance(60, device: clock)
            await store.respondToNextManagement(.cancel)
            var after = try await kit.showManageSubscriptions()
            for _ in 0..<50 where after.entitlements["basic"]?.willRenew != false {
                try await Task.sleep(nanoseconds: 100_000_000)
                after = try await kit.customerInfo(fetchPolicy: .fetchCurrent)
            }
            #expect(after.entitlements["basic"]?.willRenew == false && after.entitlements["basic"]?.isActive == true)
            #expect(await store.managementVisits == [.cancel])
            await kit.stop()
        }
    }

    @Test("a refund request: cancelled changes nothing; declined changes nothing; approved ends the access")
    func refund() async throws {
        try await KitServer.with { server in
            let store = server.store("ned")
            let clock = TestDeviceClock()
            let kit = server.launch(store, InMemoryPersistence(), clock)
            try await kit.start()
            await #expect(throws: StoreKeeperError(.productNotFound, "")) {
                _ = try await kit.beginRefundRequest(for: "basic.monthly")
            }
            guard case .purchased = try await kit.purchase(productID: "basic.monthly") else {
                Issue.record("not purchased")
                return
            }
            try await server.advance(60, device: clock)  // Apple refunds later than the purchase
            await store.respondToNextRefundRequest(.cancel)
            #expect(try await kit.beginRefundRequest(for: "basic.monthly") == .userCancelled)
            await store.respondToNextRefundRequest(.submit(.decline))
            #expect(try await kit.beginRefundRequest(for: "basic.monthly") == .success)
            #expect(try await kit.customerInfo(fetchPolicy: .fetchCurrent).entitlements["basic"]?.isActive == true)

            await store.respondToNextRefundRequest(.submit(.approve(after: 0.2)))
            #expect(try await kit.beginRefundRequest(for: "basic.monthly") == .success)
            var after = try await kit.customerInfo(fetchPolicy: .fetchCurrent)
            for _ in 0..<100 where after.entitlements["basic"]?.isActive != false {
                try await Task.sleep(nanoseconds: 100_000_000)
                after = try await kit.customerInfo(fetchPolicy: .fetchCurrent)
            }
            #expect(after.verification == .server && after.activeEntitlements.isEmpty)
            #expect(after.subscriber?.subscriptions.first?.revokedAt != nil)
            await kit.stop()
        }
    }
}
