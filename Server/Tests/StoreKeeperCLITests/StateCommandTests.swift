import Foundation
import StoreKeeperAPI
import TestSupport
import Testing

/// `storekeeper state`: what StoreKeeper decides for evidence files, independent of their order.
@Suite struct StateCommandTests {
    static let files = [
        "receipts/sandbox_ios_revenuecat_sampleapp_2020.b64", "json/verifyReceipt_sandbox_revenuecat_sampleapp.json",
        "json/notificationV1_DID_CHANGE_RENEWAL_STATUS_sandbox_twigano.json",
        "jws/transaction_consumable_sandbox_goodheart_2025.jws",
        "jws/renewalinfo_sandbox_ringalarm_2023.jws",
    ].map { Fixtures.directory.appendingPathComponent($0).path }

    static var config: String { Fixtures.repositoryRoot.appendingPathComponent("examples/engine-config.json").path }

    @Test(
        "--json: the API's shapes and names — subscriptions with status and explanation, entitlements, intro eligibility"
    )
    func json() async throws {
        let result = try await CommandRunner.run(
            ["state", "--json", "--at", "2020-07-22T18:00:00Z", "--config", Self.config] + Self.files)
        #expect(result.status == 0, "\(result.standardError)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let subscriptions = try #require(object["subscriptions"] as? [[String: Any]])
        let revenueCat = try #require(
            subscriptions.first { $0["original_transaction_id"] as? String == "1000000692878476" })
        #expect(revenueCat["status"] as? String == "active")
        #expect(revenueCat["product_id"] as? String == "com.revenuecat.annual_39.99.2_week_intro")
        #expect(revenueCat["expires_at"] as? String == "2020-07-22T18:39:06Z")
        #expect(revenueCat.keys.contains("will_auto_renew") && revenueCat.keys.contains("expiration_reason"))
        // Every key of the API's Subscription, and no other.
        #expect(Set(revenueCat.keys) == Set(Subscription.CodingKeys.allCases.map(\.stringValue)))
        #expect(object["evaluated_at"] as? String == "2020-07-22T18:00:00Z")
        #expect(object["non_subscriptions"] is [[String: Any]])
        #expect((revenueCat["explanation"] as? [String])?.isEmpty == false)
        for subscription in subscriptions {
            #expect(
                ["active", "expired", "inGracePeriod", "inBillingRetry", "revoked"].contains(
                    subscription["status"] as? String))
        }
        let entitlements = try #require(object["entitlements"] as? [[String: Any]])
        #expect(entitlements.map { $0["identifier"] as? String } == ["pro"])
        let eligibility = try #require(object["intro_eligibility"] as? [String: String])
        #expect(eligibility["com.revenuecat.monthly_4.99.1_week_intro"] == "ineligible")
        #expect(
            eligibility["co.ringalarm.swtich.quarterly2"] == nil
                || eligibility["co.ringalarm.swtich.quarterly2"] == "unknown")
    }

    @Test(
        "--at reconstructs an instant from a later response; --known-at keeps what was known then"
    )
    func history() async throws {
        let response = Fixtures.directory.appendingPathComponent(
            "json/verifyReceipt_sandbox_revenuecat_sampleapp.json"
        ).path
        // The response was made on 2020-07-22; it shows the monthly period of 2020-07-14 21:42:57–21:47:57.
        let happened = try await CommandRunner.run(["state", "--json", "--at", "2020-07-14T21:45:00Z", response])
        #expect(happened.status == 0, "\(happened.standardError)")
        let then = try #require(
            try JSONSerialization.jsonObject(with: Data(happened.standardOutput.utf8)) as? [String: Any])
        let subscription = try #require((then["subscriptions"] as? [[String: Any]])?.first)
        #expect(subscription["status"] as? String == "active")
        #expect(subscription["expires_at"] as? String == "2020-07-14T21:47:57Z")
        #expect(then["known_at"] is NSNull)

        let audit = try await CommandRunner.run(["state", "--json", "--known-at", "2020-07-14T21:45:00Z", response])
        #expect(audit.status == 0, "\(audit.standardError)")
        let known = try #require(
            try JSONSerialization.jsonObject(with: Data(audit.standardOutput.utf8)) as? [String: Any])
        #expect((known["subscriptions"] as? [Any])?.isEmpty == true, "nothing was known on the 14th")
        #expect(known["evaluated_at"] as? String == "2020-07-14T21:45:00Z")
        #expect(known["known_at"] as? String == "2020-07-14T21:45:00Z")

        let text = try await CommandRunner.run(["state", "--at", "2020-07-14T21:45:00Z", response])
        #expect(text.standardOutput.hasPrefix("at 2020-07-14T21:45:00Z (as it happened, from all the evidence)"))
        #expect(try await CommandRunner.run(["state", "--known-at", "yesterday", response]).status == 2)
    }

    @Test("the output is identical whatever order the files are given in")
    func orderFree() async throws {
        var generator = SeededGenerator(seed: 7)
        let baseline = try await CommandRunner.run(
            ["state", "--json", "--at", "2021-01-01T00:00:00Z", "--config", Self.config] + Self.files)
        #expect(baseline.status == 0)
        for _ in 0..<4 {
            let shuffled = Self.files.shuffled(using: &generator)
            let result = try await CommandRunner.run(
                ["state", "--json", "--at", "2021-01-01T00:00:00Z", "--config", Self.config] + shuffled)
            #expect(result.standardOutput == baseline.standardOutput)
        }
    }

    @Test("a forged file stops the command with exit 1; usage errors exit 2")
    func failures() async throws {
        let forged = FileManager.default.temporaryDirectory.appendingPathComponent("forged-\(UUID().uuidString).jws")
        try JWSTamper.flippedSignature(try Fixtures.text("jws/notification_TEST_sandbox_2022.jws")).write(
            to: forged, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: forged) }
        let result = try await CommandRunner.run(["state", forged.path])
        #expect(result.status == 1)
        #expect(result.standardError.contains("invalid_signature"))
        #expect(try await CommandRunner.run(["state"]).status == 2)
        #expect(try await CommandRunner.run(["state", "--at", "soon", Self.files[0]]).status == 2)
    }
}
