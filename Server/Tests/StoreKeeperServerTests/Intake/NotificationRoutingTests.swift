import AppStoreVerification
import Foundation
import StoreKeeperWire
import TestSupport
import Testing

@testable import StoreKeeperServer

/// A V2 notification is routed to an app by the bundle id it claims, read before anything is verified (the
/// chosen app's verifier then checks the whole token); its token is read out of Apple's body shape by a scan
/// that agrees with a JSON parser or leaves the body to one.
@Suite struct NotificationRoutingTests {
    /// A compact JWS-shaped token around `payload` (header and signature are not looked at by routing).
    static func token(_ payload: String) -> String {
        "eyJhbGciOiJFUzI1NiJ9." + Base64.urlEncode(Array(payload.utf8)) + ".c2ln"
    }

    @Test("Apple's real TEST notification routes to its bundle id")
    func realNotification() throws {
        #expect(
            NotificationRouting.bundleID(token: try Fixtures.text("jws/notification_TEST_sandbox_2022.jws"))
                == "com.Abilities")
    }

    @Test("data, summary and external purchase token claims; escapes and spacing; no claim at all")
    func claims() {
        #expect(
            NotificationRouting.bundleID(
                token: Self.token(#"{"notificationType":"DID_RENEW","data":{"bundleId":"com.a.b"}}"#)) == "com.a.b")
        #expect(
            NotificationRouting.bundleID(
                token: Self.token(#"{"notificationType":"RENEWAL_EXTENDED","summary":{"bundleId" : "com.s"}}"#))
                == "com.s")
        #expect(
            NotificationRouting.bundleID(
                token:
                    Self.token(
                        #"{"notificationType":"EXTERNAL_PURCHASE_TOKEN","externalPurchaseToken":{"bundleId":"com.e"}}"#)
            ) == "com.e")
        #expect(
            NotificationRouting.bundleID(token: Self.token(#"{"notificationType":"X","data":{"bundleId":"com.a\/b"}}"#))
                == "com.a/b")
        #expect(NotificationRouting.bundleID(token: Self.token(#"{"notificationType":"TEST"}"#)) == "")
    }

    @Test("not a notification: no routing")
    func refused() {
        #expect(NotificationRouting.bundleID(token: "not a token") == nil)
        #expect(NotificationRouting.bundleID(token: "a.b.c.d") == nil)
        #expect(NotificationRouting.bundleID(token: "a.%%%.c") == nil)
        #expect(NotificationRouting.bundleID(token: Self.token(#"{"data":{"bundleId":"com.a.b"}}"#)) == nil)
        #expect(
            NotificationRouting.bundleID(token: Self.token(#"{"notificationType":7,"data":{"bundleId":"com.a.b"}}"#))
                == nil)
        #expect(NotificationRouting.bundleID(token: Self.token(#"{"notificationType":"#)) == nil)
    }

    @Test("the payload's claim is read the same from a split token as from its text")
    func splitPayload() throws {
        let token = try Fixtures.text("jws/notification_TEST_sandbox_2022.jws").trimmingCharacters(
            in: .whitespacesAndNewlines)
        #expect(NotificationRouting.bundleID(payload: try CompactJWS(token).payload) == "com.Abilities")
    }

    @Test("Apple's body shape yields its token, exactly as a JSON parser reads it")
    func bodyScan() throws {
        let token = try Fixtures.text("jws/notification_TEST_sandbox_2022.jws").trimmingCharacters(
            in: .whitespacesAndNewlines)
        let bodies = [
            #"{"signedPayload":"\#(token)"}"#, "{ \"signedPayload\" :\n\t\"\(token)\" }\n",
            #"{"signedPayload":"a.b/c+d=.e-_"}"#,
        ]
        for body in bodies {
            let scanned = NotificationRouting.signedPayload(inBody: Data(body.utf8))
            let parsed =
                (try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])?["signedPayload"] as? String
            #expect(scanned != nil && scanned == parsed)
        }
    }

    @Test("any other body is left to the JSON parser")
    func bodyScanDeclines() {
        for body in [
            #"{"signedPayload":"a\/b.c.d"}"#, #"{"signedPayload":"a.b.c","extra":1}"#, #"{"signedPayload":""}"#,
            #"{"signedPayload":"a.b.c"} x"#, #"{"signedPayload":"a.b.c""#, #"{"signedPayload":7}"#,
            #"["signedPayload"]"#,
            #"{"notification_type":"DID_RENEW"}"#, "", "{", #"{"signedPayload":"a.b c"}"#, #"{"signedPayload":"é"}"#,
        ] {
            #expect(NotificationRouting.signedPayload(inBody: Data(body.utf8)) == nil, "\(body)")
        }
    }
}
