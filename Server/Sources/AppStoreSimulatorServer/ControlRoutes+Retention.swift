import AppStoreSimulator
import AsyncHTTPClient
import Foundation
import Hummingbird
import NIOCore
import NIOHTTP1

/// The control verbs of Retention Messaging: Apple's review of a message or an image, and a customer opening their
/// subscription's page — the signed request sent to the app's real-time URL, answered within Apple's 700 ms and
/// judged as Apple would — and, with `"accept": true`, taking what was shown.
extension ControlRoutes {
    /// How long Apple waits for a real-time answer before it shows the default message.
    static let realtimeDeadline: TimeAmount = .milliseconds(700)

    func addRetentionRoutes(to control: RouterGroup<BasicRequestContext>) {
        for (verb, approved) in [("approve", true), ("reject", false)] {
            let state = approved ? "APPROVED" : "REJECTED"
            control.post("apps/:bundleID/messages/:messageID/\(verb)") { _, context in
                try await handle {
                    let bundleID = try context.parameters.require("bundleID")
                    let messageID = try context.parameters.require("messageID")
                    try await simulator.reviewRetentionMessage(
                        bundleID: bundleID, messageID: messageID, approved: approved)
                    return JSONResponse.object(["messageIdentifier": messageID.lowercased(), "messageState": state])
                }
            }
            control.post("apps/:bundleID/images/:imageID/\(verb)") { _, context in
                try await handle {
                    let bundleID = try context.parameters.require("bundleID")
                    let imageID = try context.parameters.require("imageID")
                    try await simulator.reviewRetentionImage(bundleID: bundleID, imageID: imageID, approved: approved)
                    return JSONResponse.object(["imageIdentifier": imageID.lowercased(), "imageState": state])
                }
            }
        }
        control.post("apps/:bundleID/retention-requests") { request, context in
            try await handle {
                let bundleID = try context.parameters.require("bundleID")
                let body = try await Self.object(request)
                let asked = try await simulator.retentionRequest(
                    bundleID: bundleID, customerID: try body.required("customerID", String.self),
                    locale: try body.optional("locale", String.self))
                let accept = try body.optional("accept", Bool.self) ?? false
                var report = await deliver(asked, bundleID: bundleID)
                // The customer takes what was shown in real time (a switch plan, an offer).
                if accept, report["shown"] as? String == "realtime",
                    let original = (report["request"] as? [String: Any])?["originalTransactionId"] as? String,
                    let answer = try? JSONSerialization.data(withJSONObject: report["response"] ?? [:])
                {
                    report["accepted"] = try await simulator.acceptRetentionAnswer(
                        originalTransactionID: original, answer: answer)
                }
                return JSONResponse.object(report)
            }
        }
    }

    /// Sends the request to the real-time URL and reports what Apple would show: the answer (`realtime`), or
    /// when it fails the product's default message for the locale (`default`), or nothing (`none`).
    func deliver(_ asked: (payload: Data, productID: String, body: Data, url: String?), bundleID: String) async
        -> [String: Any]
    {
        let request = (try? JSONSerialization.jsonObject(with: asked.payload)) as? [String: Any]
        var report: [String: Any] = ["request": request ?? [:]]
        let fallback = await simulator.fallback(
            bundleID: bundleID, productID: asked.productID, locale: request?["userLocale"] as? String ?? "")
        guard let url = asked.url else {
            report["shown"] = fallback
            report["problem"] = "no realtime URL is configured (Configure Realtime URL)"
            return report
        }
        var outgoing = HTTPClientRequest(url: url)
        outgoing.method = .POST
        outgoing.headers.add(name: "Content-Type", value: "application/json")
        outgoing.body = .bytes(ByteBuffer(bytes: asked.body))
        let started = ContinuousClock.now
        var status = 0
        var answer = Data()
        do {
            let response = try await HTTPClient.shared.execute(outgoing, timeout: Self.realtimeDeadline)
            status = Int(response.status.code)
            answer = Data(try await response.body.collect(upTo: 1 << 20).readableBytesView)
        } catch {
            report["problem"] = "no answer within 700 ms: \(error)"
        }
        let elapsed = ContinuousClock.now - started
        report["duration_ms"] = Int(
            elapsed.components.seconds * 1_000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
        report["status"] = status
        report["response"] = (try? JSONSerialization.jsonObject(with: answer)) ?? NSNull()
        guard status != 0 else {
            report["shown"] = fallback
            return report
        }
        let judged = await simulator.judgeRetentionAnswer(
            bundleID: bundleID, productID: asked.productID, status: status, body: answer)
        report["shown"] = judged.shown == "default" ? fallback : judged.shown
        if let problem = judged.problem { report["problem"] = problem }
        return report
    }
}
