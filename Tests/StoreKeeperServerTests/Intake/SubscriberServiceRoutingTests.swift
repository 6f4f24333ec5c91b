import AppStoreVerification
import Foundation
@testable import StoreKeeperServer
import TestSupport
import Testing

/// A V2 notification is routed to an app by the bundle id it claims, read before anything is verified (the
/// chosen app's verifier then checks the whole token).
@Suite struct SubscriberServiceRoutingTests {
    /// A compact JWS-shaped token around `payload` (header and signature are not looked at by routing).
    static func token(_ payload: String) -> String {
        "eyJhbGciOiJFUzI1NiJ9." + Base64.urlEncode(Array(payload.utf8)) + ".c2ln"
    }

    @Test("Apple's real TEST notification routes to its bundle id")
    func realNotification() throws {
        #expect(SubscriberService.routingBundleID(try Fixtures.text("jws/notification_TEST_sandbox_2022.jws")) == "com.Abilities")
    }

    @Test("data, summary and external purchase token claims; escapes and spacing; no claim at all")
    func claims() {
        #expect(SubscriberService.routingBundleID(Self.token(#"{"notificationType":"DID_RENEW","data":{"bundleId":"com.a.b"}}"#)) == "com.a.b")
        #expect(SubscriberService.routingBundleID(Self.token(#"{"notificationType":"RENEWAL_EXTENDED","summary":{"bundleId" : "com.s"}}"#)) == "com.s")
        #expect(SubscriberService.routingBundleID(
            Self.token(#"{"notificationType":"EXTERNAL_PURCHASE_TOKEN","externalPurchaseToken":{"bundleId":"com.e"}}"#)) == "com.e")
        #expect(SubscriberService.routingBundleID(Self.token(#"{"notificationType":"X","data":{"bundleId":"com.a\/b"}}"#)) == "com.a/b")
        #expect(SubscriberService.routingBundleID(Self.token(#"{"notificationType":"TEST"}"#)) == "")
    }

    @Test("not a notification: no routing")
    func refused() {
        #expect(SubscriberService.routingBundleID("not a token") == nil)
        #expect(SubscriberService.routingBundleID("a.b.c.d") == nil)
        #expect(SubscriberService.routingBundleID("a.%%%.c") == nil)
        #expect(SubscriberService.routingBundleID(Self.token(#"{"data":{"bundleId":"com.a.b"}}"#)) == nil)
        #expect(SubscriberService.routingBundleID(Self.token(#"{"notificationType":7,"data":{"bundleId":"com.a.b"}}"#)) == nil)
        #expect(SubscriberService.routingBundleID(Self.token(#"{"notificationType":"#)) == nil)
    }
}
