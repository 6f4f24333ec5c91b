import AppStoreSimulator
import Foundation
import TestSupport
import Testing

@testable import AppStoreClient

/// Apple's rate limits: past an endpoint's budget the simulator answers 429 `RateLimitExceededError` with a
/// `Retry-After` holding a UNIX time in milliseconds, as Apple documents; the client waits for it when its
/// deadline allows and otherwise says at once when Apple answers again.
@Suite struct AppleRateLimitTests {
    @Test("Retry-After is Apple's UNIX time in milliseconds, or HTTP's seconds; anything else is no answer")
    func parsing() {
        let now = Date(timeIntervalSince1970: 1_767_225_600)
        #expect(AppStoreClient.retryAfter("1767225612500", now: now) == 12.5)
        #expect(AppStoreClient.retryAfter("1767225500000", now: now) == 0, "a time already past: no wait")
        #expect(AppStoreClient.retryAfter("30", now: now) == 30)
        #expect(AppStoreClient.retryAfter(nil, now: now) == nil)
        #expect(AppStoreClient.retryAfter("Wed, 21 Oct 2026 07:28:00 GMT", now: now) == nil)
        #expect(AppStoreClient.retryAfter("-5", now: now) == nil)
        #expect(AppStoreClient.retryAfter("nan", now: now) == nil)
    }

    @Test("past the budget: 429 with Apple's error and a Retry-After in the window's future; other endpoints answer")
    func refused() async throws {
        try await AppStoreClientServerAPITests.withSimulator { h, client, credentials, bundleID in
            let bought = try await h.simulator.purchase(
                bundleID: bundleID, productID: "premium.monthly", customerID: "rl")
            try await h.simulator.setRateLimit("Get Transaction Info", .init(requests: 2, seconds: 3_600))
            for _ in 0..<2 {
                _ = try await client.transactionInfo(transactionID: bought.transactionID, credentials: credentials)
            }
            var configuration = client.configuration
            configuration.totalDeadline = .seconds(2)
            let short = AppStoreClient(configuration: configuration, httpClient: .shared)
            let started = Date()
            do {
                _ = try await short.transactionInfo(transactionID: bought.transactionID, credentials: credentials)
                Issue.record("a third request within the budget's hour was answered")
            } catch let error as AppStoreClientError {
                #expect(error.code == .rateLimited && error.status == 429, "\(error)")
                let wait = try #require(error.retryAfter)
                #expect(wait > 0 && wait <= 3_600, "until the hour's window ends: \(wait)")
                #expect(Date().timeIntervalSince(started) < 30, "said at once, not waited out")
            }
            // Another endpoint has its own budget.
            #expect(
                try await client.allSubscriptionStatuses(
                    transactionID: bought.originalTransactionID, credentials: credentials
                ).data?.isEmpty == false)
            try await h.simulator.setRateLimit("Get Transaction Info", nil)
            _ = try await client.transactionInfo(transactionID: bought.transactionID, credentials: credentials)
            #expect(
                await h.simulator.admitServerAPIRequest(
                    bundleID: bundleID, method: "GET", path: "/inApps/v1/transactions/\(bought.transactionID)") == nil,
                "Apple's own limit again: 5 a second in the sandbox over an hour")
        }
    }

    @Test("budgets count per app and endpoint; Retry-After is the window's end in milliseconds; no made-up endpoint")
    func wire() async throws {
        try await AppStoreClientServerAPITests.withSimulator { h, _, _, bundleID in
            try await h.simulator.setRateLimit("Get Refund History", .init(requests: 1, seconds: 3_600))
            #expect(
                await h.simulator.admitServerAPIRequest(
                    bundleID: bundleID, method: "GET", path: "/inApps/v2/refund/lookup/1") == nil)
            let retryAt = try #require(
                await h.simulator.admitServerAPIRequest(
                    bundleID: bundleID, method: "GET", path: "/inApps/v2/refund/lookup/2"))
            #expect(Double(retryAt) / 1_000 > Date().timeIntervalSince1970)
            #expect(Double(retryAt) / 1_000 <= Date().timeIntervalSince1970 + 3_600)
            #expect(
                await h.simulator.admitServerAPIRequest(
                    bundleID: "com.example.other", method: "GET", path: "/inApps/v2/refund/lookup/2") == nil,
                "budgets are per app")
            // The Retention Messaging API's table too: 1 a second (Configure Default Message 10), a tenth in the
            // sandbox, over an hour.
            #expect(
                ServerAPIRateLimits.endpoint(method: "PUT", path: "/inApps/v1/messaging/default/p/en-US")
                    == "Configure Default Message")
            #expect(
                ServerAPIRateLimits.endpoint(method: "GET", path: "/inApps/v1/messaging/performanceTest/result/x")
                    == "Get Performance Test Results")
            #expect(ServerAPIRateLimits.endpoint(method: "PUT", path: "/inApps/v1/messaging/image/x") == "Upload Image")
            #expect(
                ServerAPIRateLimits().budget("Upload Message", environment: "Sandbox")
                    == .init(requests: 360, seconds: 3_600))
            #expect(
                ServerAPIRateLimits().budget("Configure Default Message", environment: "Production")
                    == .init(requests: 36_000, seconds: 3_600))
            await #expect(throws: SimulatorError.self) {
                try await h.simulator.setRateLimit("Get Everything", .init(requests: 1, seconds: 1))
            }
        }
    }

    @Test("within the deadline the client waits for Apple's Retry-After and is answered")
    func waited() async throws {
        try await AppStoreClientServerAPITests.withSimulator { h, client, credentials, bundleID in
            let bought = try await h.simulator.purchase(
                bundleID: bundleID, productID: "premium.monthly", customerID: "rw")
            try await h.simulator.setRateLimit("Get Transaction Info", .init(requests: 1, seconds: 2))
            for _ in 0..<3 {
                let info = try await client.transactionInfo(
                    transactionID: bought.transactionID, credentials: credentials)
                #expect(info.signedTransactionInfo != nil)
            }
        }
    }
}
