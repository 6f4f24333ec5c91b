import AppStoreModels
import AppStoreSimulator
import AppStoreVerification
import EvidenceInspection
import Foundation
import StoreKeeperWire
import TestSupport
import Testing

/// Simulator evidence passes StoreKeeper's verifiers only when the simulator's roots are configured; the
/// simulator's verifyReceipt and Server API answer Apple's statuses; runs are reproducible.
@Suite struct SimulatorEvidenceTests {
    @Test("signed data and receipts verify with the simulator's roots and fail without them")
    func rootsRequired() async throws {
        let h = try await SimulatorHarness()
        let bought = try await h.simulator.purchase(
            bundleID: h.bundleID, productID: "premium.monthly", customerID: "sam")
        let token = try #require(
            try await h.simulator.transactionInfo(transactionID: bought.transactionID, bundleID: h.bundleID)
                .signedTransactionInfo)
        let receipt = try await h.simulator.receipt(bundleID: h.bundleID, customerID: "sam")
        var configured = EvidenceInspector.Configuration()
        configured.additionalRoots = [
            SimulatorHarness.sharedPKI.signedDataRootDER, SimulatorHarness.sharedPKI.receiptRootDER,
        ]
        let trusting = try EvidenceInspector(configuration: configured)
        let strict = try EvidenceInspector()
        for evidence in [
            token, receipt, try #require(await h.simulator.notifications(for: h.bundleID).last?.signedPayload),
        ] {
            let good = await trusting.inspect(Array(evidence.utf8))
            #expect(good.valid, "\(good.error?.message ?? "")")
            let refused = await strict.inspect(Array(evidence.utf8))
            #expect(!refused.valid)
            #expect(refused.error?.code == .verification(.untrustedRoot))
        }
        let decoded = await trusting.inspect(Array(receipt.utf8))
        #expect((decoded.payload?.value as? [String: Any])?["bundle_id"] as? String == h.bundleID)
    }

    @Test(
        "a notification's nested tokens are authenticated by its signature: changing one breaks it; a bad one fails it")
    func nestedTokens() async throws {
        let h = try await SimulatorHarness()
        let bought = try await h.simulator.purchase(
            bundleID: h.bundleID, productID: "premium.monthly", customerID: "nia")
        let signed = try #require(await h.simulator.notifications(for: h.bundleID).last?.signedPayload)
        let good = try await h.verifier.verifyNotification(signed)
        #expect(good.transaction?.transactionId == bought.transactionID)
        #expect(good.renewalInfo?.originalTransactionId == bought.originalTransactionID)

        // The payload with its signedTransactionInfo replaced by `nested`.
        func payload(withNestedTransaction nested: String) throws -> [UInt8] {
            var object = try #require(
                try JSONSerialization.jsonObject(with: Data(Base64.decode(JWSTamper.parts(signed)[1])!))
                    as? [String: Any])
            var data = try #require(object["data"] as? [String: Any])
            data["signedTransactionInfo"] = nested
            object["data"] = data
            return Array(try JSONSerialization.data(withJSONObject: object))
        }
        let nested = try #require(good.payload.data?.signedTransactionInfo)
        // Altered inside the notification, keeping the notification's signature: refused.
        var parts = JWSTamper.parts(signed)
        parts[1] = Base64.urlEncode(try payload(withNestedTransaction: JWSTamper.flippedSignature(nested)))
        await #expect(throws: VerificationError(.invalidSignature, "")) {
            _ = try await h.verifier.verifyNotification(parts.joined(separator: "."))
        }
        // Signed by the (trusted) simulator around a nested token with another algorithm: refused, naming it.
        let resigned = try SimulatorHarness.sharedPKI.signedData.sign(
            try payload(withNestedTransaction: JWSTamper.withAlgorithm(nested, "HS256")))
        await #expect {
            _ = try await h.verifier.verifyNotification(resigned)
        } throws: { error in
            (error as? VerificationError)?.code == .algorithmNotAllowed && "\(error)".contains("signedTransactionInfo")
        }
        // ...and around a nested transaction for another app: refused by the notification's expectations.
        let other = String(decoding: Base64.decode(JWSTamper.parts(nested)[1])!, as: UTF8.self)
            .replacingOccurrences(of: "\"bundleId\":\"\(h.bundleID)\"", with: "\"bundleId\":\"com.example.other\"")
        #expect(other.contains("com.example.other"))
        let foreign = try SimulatorHarness.sharedPKI.signedData.sign(
            try payload(withNestedTransaction: try SimulatorHarness.sharedPKI.signedData.sign(Array(other.utf8))))
        let app = try AppStoreSignedDataVerifier(
            configuration: .init(
                rootCertificates: [SimulatorHarness.sharedPKI.signedDataRootDER],
                expectations: .init(bundleID: h.bundleID)))
        #expect(try await app.verifyNotification(signed).transaction?.bundleId == h.bundleID)
        await #expect(throws: VerificationError(.unexpectedBundleID, "")) {
            _ = try await app.verifyNotification(foreign)
        }
    }

    @Test("verifyReceipt statuses: 21007, 21008-free sandbox, 21004, 21002, 21003, 21000, 21010, forced 21005")
    func verifyReceiptStatuses() async throws {
        let h = try await SimulatorHarness()
        _ = try await h.simulator.purchase(bundleID: h.bundleID, productID: "premium.monthly", customerID: "tia")
        let receipt = try await h.simulator.receipt(bundleID: h.bundleID, customerID: "tia")
        func status(_ body: Data, _ endpoint: AppStoreSimulator.ReceiptEndpoint = .sandbox) async throws -> Int {
            let data = await h.simulator.verifyReceipt(body: body, endpoint: endpoint)
            return try JSONDecoder().decode(VerifyReceiptResponse.self, from: data).status
        }
        func body(_ receiptData: String, _ password: String?) throws -> Data {
            try JSONEncoder().encode(VerifyReceiptRequest(receiptData: receiptData, password: password))
        }
        #expect(try await status(body(receipt, h.sharedSecret)) == 0)
        #expect(try await status(body(receipt, h.sharedSecret), .production) == 21007)
        #expect(try await status(body(receipt, "wrong")) == 21004)
        #expect(try await status(body(receipt, nil)) == 21004)
        #expect(try await status(body("%%%", h.sharedSecret)) == 21002)
        #expect(try await status(body("MIIBAAAA", h.sharedSecret)) == 21002)
        let foreign = try Fixtures.text("receipts/sandbox_ios_revenuecat_sampleapp_2020.b64")
        #expect(try await status(body(foreign, h.sharedSecret)) == 21003)
        #expect(try await status(Data("not json".utf8)) == 21000)
        await h.simulator.forceVerifyReceiptStatus(21005)
        let retry = try JSONDecoder().decode(
            VerifyReceiptResponse.self,
            from: await h.simulator.verifyReceipt(body: try body(receipt, h.sharedSecret), endpoint: .sandbox))
        #expect(retry.status == 21005 && retry.isRetryable == true)
        await h.simulator.forceVerifyReceiptStatus(nil)
        await h.simulator.deleteCustomer("tia")
        #expect(try await status(body(receipt, h.sharedSecret)) == 21010)
    }

    @Test("Server API: history pages by revision, order lookup, notification history, test notification")
    func serverAPI() async throws {
        let h = try await SimulatorHarness()
        let bought = try await h.simulator.purchase(bundleID: h.bundleID, productID: "basic.monthly", customerID: "uma")
        await h.advance(months: 12)
        for _ in 0..<10 {
            _ = try await h.simulator.purchase(bundleID: h.bundleID, productID: "coins.100", customerID: "uma")
        }
        let first = try await h.simulator.transactionHistory(
            transactionID: bought.transactionID, bundleID: h.bundleID, revision: nil)
        #expect(first.signedTransactions?.count == 20 && first.hasMore == true)
        let second = try await h.simulator.transactionHistory(
            transactionID: bought.transactionID, bundleID: h.bundleID, revision: first.revision)
        #expect(second.signedTransactions?.count == 3 && second.hasMore == false)
        let order = await h.simulator.lookUpOrder(orderID: bought.orderID, bundleID: h.bundleID)
        #expect(order.status == 0 && (order.signedTransactions?.count ?? 0) >= 1)
        #expect(await h.simulator.lookUpOrder(orderID: "MNOPE", bundleID: h.bundleID).status == 1)
        var request = NotificationHistoryRequest()
        request.startDate = 0
        request.endDate = Int64.max / 2
        request.notificationType = .didRenew
        // Apple lists a notification once it tried to send it: none yet (this app has no URL), then all 12.
        let unsent = try await h.simulator.notificationHistory(
            bundleID: h.bundleID, request: request, paginationToken: nil)
        #expect(unsent.notificationHistory?.isEmpty == true)
        for record in await h.simulator.notifications(for: h.bundleID) {
            await h.simulator.recordAttempt(notificationUUID: record.notificationUUID, result: "SUCCESS")
        }
        let history = try await h.simulator.notificationHistory(
            bundleID: h.bundleID, request: request, paginationToken: nil)
        #expect(history.notificationHistory?.count == 12)
        let token = try await h.simulator.requestTestNotification(bundleID: h.bundleID)
        let test = try await h.simulator.testNotificationStatus(token: token, bundleID: h.bundleID)
        #expect(
            try await h.verifier.verifyNotification(try #require(test.signedPayload)).payload.notificationType == .test)
        await #expect(throws: AppStoreAPIError.self) {
            _ = try await h.simulator.transactionInfo(transactionID: "999", bundleID: h.bundleID)
        }
        await #expect(throws: AppStoreAPIError.self) {
            _ = try await h.simulator.transactionInfo(transactionID: bought.transactionID, bundleID: "com.other")
        }
    }

    @Test("same seed and clock: identical ids, dates, notifications and payloads")
    func deterministic() async throws {
        func run() async throws -> [String] {
            let h = try await SimulatorHarness(seed: 99)
            let bought = try await h.simulator.purchase(
                bundleID: h.bundleID, productID: "premium.monthly", customerID: "vic",
                options: .init(offer: .introductory))
            try await h.simulator.failNextRenewal(originalTransactionID: bought.transactionID)
            await h.advance(months: 3)
            var lines: [String] = []
            for record in await h.simulator.notifications(for: h.bundleID) {
                let payload = try await h.verifier.verify(record.signedPayload).payload
                lines.append(record.notificationUUID + " " + String(decoding: payload, as: UTF8.self))
            }
            return lines
        }
        let a = try await run()
        let b = try await run()
        #expect(!a.isEmpty)
        // Nested JWS differ only in their signatures; compare the decoded top level minus nested tokens.
        func stripped(_ lines: [String]) -> [String] {
            lines.map { $0.replacingOccurrences(of: #""eyJ[^"]*""#, with: "\"<jws>\"", options: .regularExpression) }
        }
        #expect(stripped(a) == stripped(b))
    }
}
