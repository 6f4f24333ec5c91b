import AppStoreModels
import AppStoreSimulator
import AppStoreSimulatorServer
import AppStoreVerification
import AsyncHTTPClient
import Crypto
import Foundation
import Hummingbird
import NIOCore
import NIOHTTP1
import TestSupport
import Testing

/// The simulator over real HTTP on loopback: Apple's endpoints, JWT auth, the control API and notification
/// delivery with retries to a real receiver.
@Suite struct SimulatorHTTPTests {
    func request(_ method: NIOHTTP1.HTTPMethod, _ url: String, body: Data? = nil, token: String? = nil) async throws
        -> (Int, Data)
    {
        var request = HTTPClientRequest(url: url)
        request.method = method
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        return (Int(response.status.code), Data(try await response.body.collect(upTo: 16 << 20).readableBytesView))
    }

    @Test("control API purchase, verifyReceipt over HTTP, Server API with JWT; 401 for bad tokens")
    func endpoints() async throws {
        let h = try await SimulatorHarness()
        let key = P256.Signing.PrivateKey()
        var registered = SimulatedApp.demo(bundleID: "com.example.http")
        registered.apiPublicKeyPEM = key.publicKey.pemRepresentation
        let app = registered
        try await h.simulator.createApp(app)
        try await LiveServer.with({
            SimulatorApplication.build(
                simulator: h.simulator, manualClock: h.clock, port: 0, logger: quietLogger, onServerRunning: $0)
        }) { base in
            let purchase = try JSONSerialization.data(withJSONObject: [
                "bundleID": "com.example.http", "productID": "premium.monthly", "customerID": "web",
            ])
            let (created, body) = try await request(.POST, "\(base)/simulator/v1/purchases", body: purchase)
            #expect(created == 201)
            let bought = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
            let transactionID = try #require(bought["transactionId"] as? String)
            // As StoreKit hands the app its purchase: the signed transaction, verifiable with Apple's roots.
            let signedPurchase = try #require(bought["signedTransaction"] as? String)
            #expect(try await h.verifier.verifyTransaction(signedPurchase).transactionId == transactionID)
            let (advanced, _) = try await request(
                .POST, "\(base)/simulator/v1/clock/advance", body: Data(#"{"months":1.2}"#.utf8))
            #expect(advanced == 200)
            let receipt = try await h.simulator.receipt(bundleID: "com.example.http", customerID: "web")
            let verify = try JSONEncoder().encode(
                VerifyReceiptRequest(receiptData: receipt, password: "demo-shared-secret"))
            let (_, production) = try await request(.POST, "\(base)/verifyReceipt", body: verify)
            #expect(try JSONDecoder().decode(VerifyReceiptResponse.self, from: production).status == 21007)
            let (_, sandbox) = try await request(.POST, "\(base)/sandbox/verifyReceipt", body: verify)
            let decoded = try JSONDecoder().decode(VerifyReceiptResponse.self, from: sandbox)
            #expect(decoded.status == 0 && decoded.latestReceiptInfo?.count == 2)

            // Clients sign with their wall clock, whatever time the simulated world is at.
            let now = Date()
            let token = try ServerAPIAuthenticator.token(for: app, key: key, issuedAt: now)
            let (ok, statuses) = try await request(
                .GET, "\(base)/inApps/v1/subscriptions/\(transactionID)", token: token)
            #expect(ok == 200)
            let status = try JSONDecoder().decode(StatusResponse.self, from: statuses)
            #expect(status.data?.first?.lastTransactions?.first?.status == .active)
            let signed = try #require(status.data?.first?.lastTransactions?.first?.signedTransactionInfo)
            #expect(try await h.verifier.verifyTransaction(signed).originalTransactionId == transactionID)
            // Apple's own server library sends no iat: accepted, as Apple accepts it.
            let withoutIAT = try ServerAPIAuthenticator.token(
                for: app, key: key, issuedAt: now, includesIssuedAt: false)
            let (accepted, _) = try await request(
                .GET, "\(base)/inApps/v1/subscriptions/\(transactionID)", token: withoutIAT)
            #expect(accepted == 200)
            // The manual clock moves a year: the client's token still works.
            h.clock.advance(by: 365 * 86_400)
            let (afterMove, _) = try await request(
                .GET, "\(base)/inApps/v1/subscriptions/\(transactionID)", token: token)
            #expect(afterMove == 200)

            let wrongKey = try ServerAPIAuthenticator.token(for: app, key: P256.Signing.PrivateKey(), issuedAt: now)
            let stale = try ServerAPIAuthenticator.token(for: app, key: key, issuedAt: now.addingTimeInterval(-7200))
            let tooLong = try ServerAPIAuthenticator.token(for: app, key: key, issuedAt: now, lifetime: 7200)
            let tooLongWithoutIAT = try ServerAPIAuthenticator.token(
                for: app, key: key, issuedAt: now, lifetime: 7200, includesIssuedAt: false)
            let future = try ServerAPIAuthenticator.token(for: app, key: key, issuedAt: now.addingTimeInterval(600))
            var otherKeyID = app
            otherKeyID.apiKeyID = "OTHERKEY"
            let unknownKid = try ServerAPIAuthenticator.token(for: otherKeyID, key: key, issuedAt: now)
            for bad in [nil, "garbage", wrongKey, stale, tooLong, tooLongWithoutIAT, future, unknownKid] {
                let (code, errorBody) = try await request(
                    .GET, "\(base)/inApps/v1/subscriptions/\(transactionID)", token: bad)
                #expect(code == 401)
                #expect(try JSONDecoder().decode(APIErrorResponse.self, from: errorBody).errorCode == 4_010_000)
            }
            let (missing, notFound) = try await request(.GET, "\(base)/inApps/v1/transactions/12345", token: token)
            #expect(missing == 404)
            #expect(try JSONDecoder().decode(APIErrorResponse.self, from: notFound).errorCode == 4_040_010)
            let (refund, _) = try await request(
                .POST, "\(base)/simulator/v1/transactions/\(transactionID)/refund", body: Data("{}".utf8))
            #expect(refund == 200)
            let (unknown, errorBody) = try await request(
                .POST, "\(base)/simulator/v1/transactions/999/refund", body: Data("{}".utf8))
            #expect(unknown == 404)
            #expect(String(decoding: errorBody, as: UTF8.self).contains("not_found"))
        }
    }

    @Test(
        "control verbs: a required field missing or of the wrong type is a 400 naming it, and changes nothing",
        arguments: [
            ("auto-renew", "", "missing_field", "enabled"),
            ("auto-renew", #"{"enabled":1}"#, "invalid_field", "enabled"),
            ("auto-renew", #"{"enable":false}"#, "missing_field", "enabled"),
            ("extend", #"{"days":"3"}"#, "invalid_field", "days"),
            ("change-plan", "{}", "missing_field", "productID"),
            ("price-increase-response", #"{"accept":"yes"}"#, "invalid_field", "accept"),
        ])
    func requiredFields(_ verb: String, _ body: String, _ code: String, _ field: String) async throws {
        let h = try await SimulatorHarness()
        let bought = try await h.simulator.purchase(
            bundleID: h.bundleID, productID: "premium.monthly", customerID: "strict")
        let before = await h.simulator.subscription(bought.originalTransactionID)
        try await LiveServer.with({
            SimulatorApplication.build(
                simulator: h.simulator, manualClock: h.clock, port: 0, logger: quietLogger, onServerRunning: $0)
        }) { base in
            let (status, answer) = try await request(
                .POST, "\(base)/simulator/v1/subscriptions/\(bought.originalTransactionID)/\(verb)",
                body: Data(body.utf8))
            let error = (try JSONSerialization.jsonObject(with: answer) as? [String: Any])?["error"] as? [String: Any]
            #expect(status == 400 && error?["code"] as? String == code, "\(String(decoding: answer, as: UTF8.self))")
            #expect((error?["message"] as? String)?.hasPrefix(field) == true)
            #expect(await h.simulator.subscription(bought.originalTransactionID) == before)
            let (valid, _) = try await request(
                .POST, "\(base)/simulator/v1/subscriptions/\(bought.originalTransactionID)/auto-renew",
                body: Data(#"{"enabled":false}"#.utf8))
            #expect(valid == 200)
        }
        #expect(await h.simulator.subscription(bought.originalTransactionID)?.autoRenewEnabled == false)
    }

    @Test(
        "creating an app with a field missing or of the wrong type answers 400 naming the field, not a decoder's dump",
        arguments: [
            (#"{"appAppleID":1,"sharedSecret":"s","gracePeriodDays":16,"products":[]}"#, "missing_field", "bundleID"),
            (
                #"{"bundleID":"com.x","sharedSecret":"s","gracePeriodDays":16,"products":[]}"#, "missing_field",
                "appAppleID"
            ),
            (
                #"{"bundleID":"com.x","appAppleID":"one","sharedSecret":"s","gracePeriodDays":16,"products":[]}"#,
                "invalid_field", "appAppleID"
            ),
            ("not json", "invalid_field", "JSON"),
        ])
    func appFields(_ body: String, _ code: String, _ named: String) async throws {
        let h = try await SimulatorHarness()
        try await LiveServer.with({
            SimulatorApplication.build(
                simulator: h.simulator, manualClock: h.clock, port: 0, logger: quietLogger, onServerRunning: $0)
        }) { base in
            let (status, answer) = try await request(.POST, "\(base)/simulator/v1/apps", body: Data(body.utf8))
            let error = (try JSONSerialization.jsonObject(with: answer) as? [String: Any])?["error"] as? [String: Any]
            #expect(status == 400 && error?["code"] as? String == code, "\(String(decoding: answer, as: UTF8.self))")
            let message = error?["message"] as? String ?? ""
            #expect(message.contains(named) && !message.contains("CodingKeys") && message.count < 200, "\(message)")
        }
    }

    @Test("notifications are POSTed to the app's URL and retried after a failure, attempts in history")
    func delivery() async throws {
        let receiver = NotificationReceiver(statuses: [500])
        try await LiveServer.with(router: receiver.router()) { receiverBase in
            let h = try await SimulatorHarness(notificationURL: "\(receiverBase)/notifications")
            let delivery = NotificationDeliveryService(simulator: h.simulator, httpClient: HTTPClient.shared)
            _ = try await h.simulator.purchase(bundleID: h.bundleID, productID: "premium.monthly", customerID: "zed")
            await delivery.deliverDue()
            #expect(receiver.bodies.count == 1)
            var history = await h.simulator.notifications(for: h.bundleID)
            #expect(history[0].attempts.map(\.result) == ["UNSUCCESSFUL_HTTP_RESPONSE_CODE"])
            await delivery.deliverDue()
            #expect(receiver.bodies.count == 1)  // the retry waits for Apple's first interval (1 h, scaled)
            h.clock.advance(by: AppStoreSimulator.Configuration().rate.seconds(forHours: 1) + 1)
            await delivery.deliverDue()
            #expect(receiver.bodies.count == 2)
            history = await h.simulator.notifications(for: h.bundleID)
            #expect(history[0].attempts.map(\.result) == ["UNSUCCESSFUL_HTTP_RESPONSE_CODE", "SUCCESS"])
            #expect(history[0].nextAttemptAt == nil)
            let body = try JSONDecoder().decode(ResponseBodyV2.self, from: receiver.bodies[1])
            #expect(try await h.verifier.verifyNotification(body.signedPayload).payload.notificationType == .subscribed)
        }
    }

    @Test(
        "each subscription's notifications arrive in order (different ones side by side); the backlog counts what is due"
    )
    func orderedLanes() async throws {
        let receiver = NotificationReceiver(statuses: [])
        try await LiveServer.with(router: receiver.router()) { receiverBase in
            let h = try await SimulatorHarness(notificationURL: "\(receiverBase)/notifications")
            let delivery = NotificationDeliveryService(simulator: h.simulator, httpClient: HTTPClient.shared)
            for customer in 0..<6 {
                _ = try await h.simulator.purchase(
                    bundleID: h.bundleID, productID: "premium.monthly", customerID: "lane-\(customer)")
            }
            await h.advance(months: 3.5)
            let backlog = await h.simulator.deliveryBacklog()
            #expect(backlog.due == 6 * 4 && backlog.scheduled == 6 * 4)  // SUBSCRIBED and three renewals each
            #expect(await delivery.deliverDue() == 24)
            #expect(await h.simulator.deliveryBacklog().due == 0)
            var seen: [String: [Date]] = [:]
            for body in receiver.bodies {
                let notification = try await h.verifier.verifyNotification(
                    try JSONDecoder().decode(ResponseBodyV2.self, from: body).signedPayload)
                let original = try #require(notification.transaction?.originalTransactionId)
                seen[original, default: []].append(notification.payload.signedDate ?? .distantPast)
            }
            #expect(seen.count == 6)
            for (original, dates) in seen {
                #expect(dates == dates.sorted() && dates.count == 4, "\(original): \(dates)")
            }
        }
    }
}
