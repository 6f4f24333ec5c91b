import Foundation
import TestSupport
import Testing

/// `POST /v1/retention/appstore` takes no key: Apple's signature is its only proof. Played as an attacker over
/// HTTP against `storekeeper serve`: Apple's genuine request is captured on its way (the real-time URL pointed at
/// a receiver), then replayed edited or with a broken signature — refused, nothing recorded; the genuine request is
/// answered once, and refused replayed or held back past five minutes; a genuine request about a subscription the
/// server never heard of is answered so Apple shows its default message.
@Suite(.timeLimit(.minutes(3))) struct RetentionEndpointAttackTests {
    typealias E2E = RetentionEndToEndTests

    /// Apple's signed request when `customer` opens their subscription's page, as it reached the real-time URL.
    static func captured(_ client: ServeClient, _ receiver: WebhookReceiver, hook: String, customer: String)
        async throws -> String
    {
        let token = try await E2E.apiToken(client)
        let (configured, _) = try await client.call(
            .PUT, "/inApps/v1/messaging/realtime/url", key: token, body: #"{"realtimeURL":"\#(hook)/hook"}"#)
        #expect(configured == 200)
        let before = receiver.deliveries.count
        _ = try await E2E.open(client, customer)
        #expect(try await receiver.wait { $0.count > before })
        let body = try #require(receiver.deliveries.last?.body)
        let object = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        return try #require(object["signedPayload"] as? String)
    }

    /// The ids of the retention events in an events answer.
    static func retentionEvents(_ answer: String) -> [Int] {
        let object = (try? JSONSerialization.jsonObject(with: Data(answer.utf8))) as? [String: Any]
        return (object?["events"] as? [[String: Any]] ?? []).compactMap { event in
            (event["type"] as? String)?.hasPrefix("retention_") == true ? event["id"] as? Int : nil
        }
    }

    static func post(_ client: ServeClient, _ signedPayload: String) async throws -> (Int, String) {
        try await client.call(
            .POST, "/v1/retention/appstore", key: nil, body: #"{"signedPayload":"\#(signedPayload)"}"#)
    }

    @Test(
        "an edited, re-signed, replayed or stale request is refused and records nothing; an unknown subscription gets Apple's default"
    )
    func attacker() async throws {
        let receiver = WebhookReceiver()
        try await LiveServer.with(router: receiver.router()) { hook in
            try await E2E.withServer { client in
                _ = try await client.subscribe("vic")
                try await E2E.upload(client, E2E.message, approve: true)
                let (saved, _) = try await E2E.rules(
                    client, #"{"rules":[{"identifier":"all","respond":{"message":{"message_id":"\#(E2E.message)"}}}]}"#)
                #expect(saved == 200)
                let genuine = try await Self.captured(client, receiver, hook: hook, customer: "vic")
                let (_, eventsBefore) = try await client.call(.GET, "/v1/subscribers/vic/events", key: E2E.secretKey)

                for (name, forged) in [
                    ("edited payload", JWSTamper.editedPayload(genuine)),
                    ("flipped signature", JWSTamper.flippedSignature(genuine)),
                    ("alg none", JWSTamper.algorithmNone(genuine)),
                    ("HS256 keyed with the leaf", JWSTamper.hs256KeyedWithLeaf(genuine)),
                ] {
                    let (status, body) = try await Self.post(client, forged)
                    #expect((400..<500).contains(status) && status != 404, "\(name): \(status) \(body)")
                }
                let (malformed, why) = try await client.call(
                    .POST, "/v1/retention/appstore", key: nil, body: #"{"signed":"x"}"#)
                #expect(malformed == 400 && why.contains("signedPayload"), "\(why)")
                let (_, eventsAfter) = try await client.call(.GET, "/v1/subscribers/vic/events", key: E2E.secretKey)
                #expect(eventsAfter == eventsBefore, "a refused request records nothing")

                // The genuine request is answered once; replayed, it is refused and recorded nowhere.
                let (first, answer) = try await Self.post(client, genuine)
                #expect(first == 200 && answer.contains(E2E.message), "\(answer)")
                let (_, eventsAnswered) = try await client.call(
                    .GET, "/v1/subscribers/vic/events", key: E2E.secretKey)
                #expect(eventsAnswered != eventsAfter, "the genuine request is recorded")
                for _ in 0..<3 {
                    let (replayed, refusal) = try await Self.post(client, genuine)
                    #expect(replayed == 404 && refusal.contains("no_retention_message"), "\(refusal)")
                }
                // A request captured and held back past five minutes is refused too.
                let late = try await Self.captured(client, receiver, hook: hook, customer: "vic")
                let (advanced, _) = try await client.call(
                    .POST, "/simulator/v1/clock/advance", key: nil, body: #"{"seconds":301}"#)
                #expect(advanced == 200)
                let (stale, staleness) = try await Self.post(client, late)
                #expect(stale == 404 && staleness.contains("300 s"), "\(staleness)")
                // (Five minutes renew the sandbox's monthly subscription: only retention events are compared.)
                let (_, eventsReplayed) = try await client.call(
                    .GET, "/v1/subscribers/vic/events", key: E2E.secretKey)
                #expect(
                    Self.retentionEvents(eventsReplayed) == Self.retentionEvents(eventsAnswered)
                        && Self.retentionEvents(eventsAnswered).count == 2,
                    "a replayed or stale request records nothing: \(eventsReplayed)")

                // A subscription the server never heard of (its notifications dropped): Apple's default shows.
                let (dropped, _) = try await client.call(
                    .POST, "/simulator/v1/apps/\(E2E.bundleID)/delivery", key: nil, body: #"{"mode":"drop"}"#)
                #expect(dropped == 200)
                let (bought, _) = try await client.call(
                    .POST, "/simulator/v1/purchases", key: nil,
                    body: #"{"bundleID":"\#(E2E.bundleID)","productID":"premium.monthly","customerID":"ghost"}"#)
                #expect(bought == 201)
                let unknown = try await Self.captured(client, receiver, hook: hook, customer: "ghost")
                let (status, body) = try await Self.post(client, unknown)
                #expect(status == 404 && body.contains("no_retention_message"), "\(body)")
            }
        }
    }

    @Test(
        "an attribute the app's public key sets qualifies nobody for an attribute-gated retention rule; the backend's does"
    )
    func clientAttributes() async throws {
        try await E2E.withServer { client in
            _ = try await client.subscribe("vic")
            try await E2E.upload(client, E2E.message, approve: true)
            let (saved, why) = try await E2E.rules(
                client,
                #"{"rules":[{"identifier":"gold","when":{"attributes":{"tier":"gold"}},"respond":{"message":{"message_id":"\#(E2E.message)"}}}]}"#
            )
            #expect(saved == 200, "\(why)")
            let body = #"{"attributes":{"tier":"gold"}}"#
            let (set, _) = try await client.call(
                .POST, "/v1/subscribers/vic/attributes", key: "pk_demo_storekeeper_public", body: body)
            #expect(set == 200)
            #expect(try await E2E.open(client, "vic")["shown"] as? String == "none", "the app's value does not count")
            let (owned, _) = try await client.call(
                .POST, "/v1/subscribers/vic/attributes", key: E2E.secretKey, body: body)
            #expect(owned == 200)
            let shown = try await E2E.open(client, "vic")
            #expect(shown["shown"] as? String == "realtime", "\(shown)")
        }
    }
}
