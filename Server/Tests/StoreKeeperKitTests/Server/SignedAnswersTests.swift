import Foundation
import StoreKeeperAPI
import StoreKeeperKit
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Signed answers against a real `storekeeper serve` signing with a key `storekeeper keys new signing` made, seen
/// through a hostile network (``TamperingProxy``): what the server said verifies; a body changed on the way, a
/// stripped signature and an answer replayed for another request are refused — `verification` is `.failed` and
/// nothing new is granted — while the same forgery fools an app that checks nothing.
@Suite(.timeLimit(.minutes(3))) struct SignedAnswersTests {
    /// A fresh key pair from the CLI: (private, public).
    static func keyPair() async throws -> (String, String) {
        let run = try await CommandRunner.run(["keys", "new", "signing"])
        #expect(run.status == 0)
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        let privateKey = try #require(lines.first { $0.hasPrefix("private: ") }?.dropFirst(9))
        let publicKey = try #require(lines.first { $0.hasPrefix("public: ") }?.dropFirst(8))
        return (String(privateKey), String(publicKey))
    }

    /// A server signing with `keys`, and a tampering proxy in front of it.
    static func withSigningServer(
        keys: [String], _ body: @Sendable (KitServer, TamperingProxy, URL) async throws -> Void
    ) async throws {
        let quoted = keys.map { "\"\($0)\"" }.joined(separator: ", ")
        try await KitServer.with(configuration: #"{"answerSigningKeys": [\#(quoted)]}"#) { server in
            let proxy = TamperingProxy(upstream: server.base.absoluteString)
            try await LiveServer.with(router: proxy.router()) { proxyBase in
                try await body(server, proxy, URL(string: proxyBase)!)
            }
        }
    }

    static func launch(
        _ server: KitServer, through proxy: URL, customer: String, keys: [String], persistence: InMemoryPersistence
    ) -> StoreKeeper {
        var configuration = StoreKeeper.Configuration(serverURL: proxy, apiKey: KitServer.publicKey)
        configuration.answerSigningKeys = keys
        // Not the timeout under test: a busy machine running the whole suite once took longer than the default 5 s.
        configuration.offeringsTimeout = 30
        return StoreKeeper(
            configuration: configuration, store: server.store(customer), persistence: persistence,
            clock: TestDeviceClock())
    }

    @Test("a genuine answer verifies; a forged one, a stripped signature and a replayed answer fail and grant nothing")
    func tampering() async throws {
        let (privateKey, publicKey) = try await Self.keyPair()
        try await Self.withSigningServer(keys: [privateKey]) { server, proxy, through in
            // Olga pays; her answers pass unchanged and verify.
            let olga = Self.launch(
                server, through: through, customer: "olga", keys: [publicKey], persistence: InMemoryPersistence())
            try await olga.start()
            guard case .purchased(let bought) = try await olga.purchase(productID: "premium.monthly") else {
                Issue.record("the purchase did not complete")
                return
            }
            #expect(bought.verification == .server && bought.entitlements["pro"]?.isActive == true)
            let olgaID = try #require(await olga.appUserID)
            // Her latest answer that grants the subscription (the evidence she posted: a receipt or a transaction).
            let genuine = try #require(
                [APIPath.transactions, APIPath.receipts].compactMap { proxy.recorded("POST \($0)") }.first {
                    String(decoding: $0.body, as: UTF8.self).contains("premium.monthly")
                })

            // Mallory never paid. The network answers her with Olga's answer, renamed: an app that checks nothing
            // believes it; the app with the server's public key refuses it and grants nothing.
            let forge: TamperingProxy.Tamper = { _, answer, _ in
                guard answer.status == 200, answer.body.count > 0 else { return }
                var forged = genuine
                forged.body = Data(
                    String(decoding: genuine.body, as: UTF8.self).replacingOccurrences(of: olgaID, with: "mallory")
                        .utf8)
                answer.body = forged.body
            }
            proxy.tamper(forge)
            let fooled = Self.launch(
                server, through: through, customer: "mallory-a", keys: [], persistence: InMemoryPersistence())
            #expect(try await fooled.start().entitlements["pro"]?.isActive == true, "the forgery is a real attack")
            let mallory = Self.launch(
                server, through: through, customer: "mallory-b", keys: [publicKey], persistence: InMemoryPersistence())
            let refused = try await mallory.start()
            #expect(refused.verification == .failed && refused.activeEntitlements.isEmpty)

            // The signature stripped from a genuine answer: refused; Olga keeps only what her verified cached
            // answer grants, and is told the answer failed.
            proxy.tamper { _, answer, _ in
                answer.remove(AnswerSignature.signatureHeader)
            }
            let stripped = try await olga.customerInfo(fetchPolicy: .fetchCurrent)
            #expect(stripped.verification == .failed && stripped.entitlements["pro"]?.isActive == true)
            await #expect(throws: StoreKeeperError(.answerNotVerified, "")) {
                _ = try await mallory.offerings()
            }

            // An earlier genuine answer replayed for a new request (its signature covers the old nonce): refused.
            proxy.tamper { request, answer, recorded in
                if let earlier = recorded[request] { answer = earlier }
            }
            let replayed = try await olga.customerInfo(fetchPolicy: .fetchCurrent)
            #expect(replayed.verification == .failed)

            // The network behaves again: verified answers again.
            proxy.tamper(nil)
            #expect(try await olga.customerInfo(fetchPolicy: .fetchCurrent).verification == .server)
            await olga.stop()
            await mallory.stop()
            await fooled.stop()
        }
    }

    @Test("a request whose body or key was swapped on the way is answered for what the server read: the SDK refuses it")
    func requestSwapped() async throws {
        let (privateKey, publicKey) = try await Self.keyPair()
        try await Self.withSigningServer(keys: [privateKey]) { server, proxy, through in
            let olga = Self.launch(
                server, through: through, customer: "olga", keys: [publicKey], persistence: InMemoryPersistence())
            try await olga.start()
            guard case .purchased = try await olga.purchase(productID: "premium.monthly") else {
                Issue.record("Olga's purchase did not complete")
                return
            }
            let olgaID = try #require(await olga.appUserID)

            // Mallory buys the cheap plan; on the way her evidence is swapped for Olga's, under Mallory's id.
            let mallory = Self.launch(
                server, through: through, customer: "mallory", keys: [publicKey], persistence: InMemoryPersistence())
            try await mallory.start()
            let malloryID = try #require(await mallory.appUserID)
            proxy.tamperRequests { request, recorded in
                guard request.request.hasPrefix("POST /v1/"), !request.request.contains("/subscribers/"),
                    String(decoding: request.body, as: UTF8.self).contains(malloryID),
                    let olgas = recorded[request.request]?.last(where: {
                        String(decoding: $0.body, as: UTF8.self).contains(olgaID)
                    })
                else { return }
                request.body = Data(
                    String(decoding: olgas.body, as: UTF8.self).replacingOccurrences(of: olgaID, with: malloryID).utf8)
            }
            do {
                if case .purchased(let info) = try await mallory.purchase(productID: "basic.monthly") {
                    #expect(info.entitlements["pro"]?.isActive != true, "the swapped answer was believed")
                }
            } catch let error as StoreKeeperError {
                #expect(error.code == .answerNotVerified, "\(error)")
            }
            #expect(try await mallory.customerInfo().entitlements["pro"]?.isActive != true)
            // The attack is real: the server read Olga's receipt as Mallory's and answered granting it.
            let granted = [APIPath.transactions, APIPath.receipts].compactMap { proxy.recorded("POST \($0)") }
                .contains {
                    String(decoding: $0.body, as: UTF8.self).contains(malloryID)
                        && String(decoding: $0.body, as: UTF8.self).contains("premium.monthly")
                }
            #expect(granted, "the swapped request did not reach the server as a grant")
            proxy.tamperRequests(nil)

            // Olga's request sent with another key: the server answers for that key, and Olga's app refuses it.
            proxy.tamperRequests { request, _ in
                request.set("Authorization", "Bearer pk_sister_app_public_0123456789abcdefghij")
            }
            #expect(try await olga.customerInfo(fetchPolicy: .fetchCurrent).verification == .failed)
            proxy.tamperRequests(nil)
            #expect(try await olga.customerInfo(fetchPolicy: .fetchCurrent).verification == .server)
            await olga.stop()
            await mallory.stop()
        }
    }

    @Test("while the key changes the server signs with both: apps with the old key and with the new one verify")
    func rotation() async throws {
        let (oldPrivate, oldPublic) = try await Self.keyPair()
        let (newPrivate, newPublic) = try await Self.keyPair()
        try await Self.withSigningServer(keys: [oldPrivate, newPrivate]) { server, _, through in
            for (customer, key) in [("old-app", oldPublic), ("new-app", newPublic)] {
                let kit = Self.launch(
                    server, through: through, customer: customer, keys: [key], persistence: InMemoryPersistence())
                #expect(try await kit.start().verification == .server, "\(customer)")
                await kit.stop()
            }
            // A key the server does not hold: every answer fails.
            let (_, strangerPublic) = try await Self.keyPair()
            let stranger = Self.launch(
                server, through: through, customer: "stranger", keys: [strangerPublic],
                persistence: InMemoryPersistence())
            #expect(try await stranger.start().verification == .failed)
            await stranger.stop()
        }
    }

    @Test("a malformed nonce is refused over HTTP with a signed, typed error; a request without one is not signed")
    func nonceChecked() async throws {
        let (privateKey, _) = try await Self.keyPair()
        try await Self.withSigningServer(keys: [privateKey]) { server, _, _ in
            var request = URLRequest(url: URL(string: server.base.absoluteString + APIPath.subscriber("u1"))!)
            request.setValue("Bearer \(KitServer.publicKey)", forHTTPHeaderField: "Authorization")
            request.setValue("short", forHTTPHeaderField: AnswerSignature.nonceHeader)
            let (status, headers, body) = try await Self.exchange(request)
            #expect(status == 400 && String(decoding: body, as: UTF8.self).contains("invalid_request"))
            #expect(Self.header(AnswerSignature.signatureHeader, in: headers) != nil)
            request.setValue(nil, forHTTPHeaderField: AnswerSignature.nonceHeader)
            let (plain, plainHeaders, _) = try await Self.exchange(request)
            #expect(plain == 200 && Self.header(AnswerSignature.signatureHeader, in: plainHeaders) == nil)
        }
    }

    static func header(_ name: String, in headers: [String: String]) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    static func exchange(_ request: URLRequest) async throws -> (Int, [String: String], Data) {
        try await withCheckedThrowingContinuation { continuation in
            URLSession.shared.dataTask(with: request) { data, response, error in
                if let error { return continuation.resume(throwing: error) }
                let http = response as? HTTPURLResponse
                var headers: [String: String] = [:]
                for case (let name as String, let value as String) in http?.allHeaderFields ?? [:] {
                    headers[name] = value
                }
                continuation.resume(returning: (http?.statusCode ?? 0, headers, data ?? Data()))
            }.resume()
        }
    }
}
