import AppStoreModels
import Foundation
import TestSupport
import Testing

@testable import AppStoreVerification

/// Signed payloads in Apple's usual spellings are read without `JSONDecoder`, and every payload — usual or
/// not — decodes to exactly what `JSONDecoder` makes of it, or fails as it does.
@Suite struct CanonicalPayloadTests {
    static func verified(_ json: String) -> VerifiedSignedData {
        VerifiedSignedData(payload: Array(json.utf8), signedDate: nil, validationTime: Date(), isXcodeSigned: false)
    }

    static func payload(ofFixture path: String) throws -> [UInt8] {
        try CompactJWS(try Fixtures.text(path)).payload
    }

    /// Both readings of `json` as `Payload`: equal values, or both refused.
    static func expectSameReading<Payload: Decodable & Equatable>(
        _ json: String, as type: Payload.Type, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let data = verified(json)
        let codable = Result { try data.decodeWithCodable(type) }
        let fast = Result { try data.decode(type) }
        switch (codable, fast) {
        case (.success(let expected), .success(let actual)):
            #expect(actual == expected, "\(json)", sourceLocation: sourceLocation)
        case (.failure, .failure): break
        default:
            Issue.record(
                "readings differ for \(json): JSONDecoder \(codable), decode \(fast)", sourceLocation: sourceLocation)
        }
    }

    @Test(
        "Apple's real transaction, renewal info and notification are read canonically, equal to JSONDecoder's reading")
    func appleFixtures() throws {
        let transaction = try Self.payload(ofFixture: "jws/transaction_consumable_sandbox_goodheart_2025.jws")
        let renewal = try Self.payload(ofFixture: "jws/renewalinfo_sandbox_ringalarm_2023.jws")
        let notification = try Self.payload(ofFixture: "jws/notification_TEST_sandbox_2022.jws")
        let readTransaction = try #require(JWSTransactionDecodedPayload.canonical(transaction))
        let readRenewal = try #require(JWSRenewalInfoDecodedPayload.canonical(renewal))
        let readNotification = try #require(ResponseBodyV2DecodedPayload.canonical(notification))
        let decoder = JSONDecoder()
        #expect(readTransaction == (try decoder.decode(JWSTransactionDecodedPayload.self, from: Data(transaction))))
        #expect(readRenewal == (try decoder.decode(JWSRenewalInfoDecodedPayload.self, from: Data(renewal))))
        #expect(readNotification == (try decoder.decode(ResponseBodyV2DecodedPayload.self, from: Data(notification))))
        #expect(
            readTransaction.price == 230_000 && readTransaction.quantity == 1 && readTransaction.type == .consumable)
        #expect(
            readRenewal.autoRenewStatus == .on
                && readRenewal.recentSubscriptionStartDate == Date(timeIntervalSince1970: 1_684_822_738))
        #expect(readNotification.notificationType == .test && readNotification.data?.bundleId == "com.Abilities")
    }

    @Test("Xcode's fractional milliseconds are left to JSONDecoder, which keeps them")
    func xcodeFractions() throws {
        let transaction = try Self.payload(ofFixture: "jws/xcode_transaction_autorenewable_2023.jws")
        #expect(JWSTransactionDecodedPayload.canonical(transaction) == nil)
        let read = try Self.verified(String(decoding: transaction, as: UTF8.self)).decode(
            JWSTransactionDecodedPayload.self)
        #expect(abs(read.purchaseDate!.timeIntervalSince1970 - 1_697_679_936.0497297) < 0.000_001)
    }

    static let transactionSpellings = [
        #"{"transactionId":"1","originalTransactionId":"1","productId":"p","quantity":"2"}"#,
        #"{"transactionId":"1","originalTransactionId":"1","productId":"p","quantity":2.0}"#,
        #"{"transactionId":"1","originalTransactionId":"1","productId":"p","quantity":1e0}"#,
        #"{"transactionId":"1","originalTransactionId":"1","productId":"p","quantity":01}"#,
        #"{"transactionId":"1","originalTransactionId":"1","productId":"p","quantity":-0}"#,
        #"{"transactionId":"1","originalTransactionId":"1","productId":"p","price":9007199254740993}"#,
        #"{"transactionId":"1","originalTransactionId":"1","productId":"p","price":-9007199254740992}"#,
        #"{"transactionId":"1","originalTransactionId":"1","productId":"p","expiresDate":"1700000000000"}"#,
        #"{"transactionId":"1","originalTransactionId":"1","productId":"p","expiresDate":1700000000123}"#,
        #"{"transactionId":"1","originalTransactionId":"1","productId":"p","expiresDate":1700000000123.5}"#,
        #"{"transactionId":"1","originalTransactionId":"1","productId":"p","expiresDate":null}"#,
        #"{"transactionId":"1","originalTransactionId":"1","productId":"p","isUpgraded":"true"}"#,
        #"{"transactionId":"1","originalTransactionId":"1","productId":"p","isUpgraded":1}"#,
        #"{"transactionId":"1","originalTransactionId":"1","productId":"p","isUpgraded":true}"#,
        #"{"transactionId":"1","originalTransactionId":"1","productId":"p","environment":"Orbit"}"#,
        #"{"transactionId":"1","originalTransactionId":"1","productId":"p","offerType":"2"}"#,
        #"{"transactionId":"1","originalTransactionId":"1","productId":"p","offerType":7}"#,
        #"{"transactionId":"1","originalTransactionId":"1","productId":"p","offerType":{"a":1}}"#,
        #"{"transactionId":"1","originalTransactionId":"1","productId":"p","bundleId":42}"#,
        #"{"transactionId":"1","originalTransactionId":"1","productId":"p","storefront":"\u00e9\/x"}"#,
        #"{"transactionId":"1","originalTransactionId":"1","productId":"p","futureField":{"nested":[1,2]}}"#,
        #"{"transactionId":"1","originalTransactionId":"1","productId":"p","storefront":"a\"b\\"}"#,
        "{\"transactionId\":\"1\",\"originalTransactionId\":\"1\",\"productId\":\"p\",\"storefront\":\"a\u{01}b\"}",
        #"{"transactionId":"1","originalTransactionId":"1","productId":"p","storefront":"unterminated}"#,
        #"{"transactionId":1,"originalTransactionId":"1","productId":"p"}"#,
        #"{"transactionId":null,"originalTransactionId":"1","productId":"p"}"#,
        #"{"originalTransactionId":"1","productId":"p"}"#,
        #"{"transactionId":"1","transactionId":"2","originalTransactionId":"1","productId":"p"}"#,
        #"{"transactionId":"1","originalTransactionId":"1","productId":"p""#,
        #"["transactionId"]"#,
        "",
    ]

    @Test("every spelling of a transaction reads as JSONDecoder reads it", arguments: transactionSpellings)
    func transactionReadsAlike(_ json: String) {
        Self.expectSameReading(json, as: JWSTransactionDecodedPayload.self)
    }

    static let renewalSpellings = [
        #"{"originalTransactionId":"1","autoRenewStatus":0,"expirationIntent":2,"isInBillingRetryPeriod":false}"#,
        #"{"originalTransactionId":"1","autoRenewStatus":"1"}"#,
        #"{"originalTransactionId":"1","eligibleWinBackOfferIds":["a","b"]}"#,
        #"{"originalTransactionId":"1","eligibleWinBackOfferIds":["a",1]}"#,
        #"{"originalTransactionId":"1","eligibleWinBackOfferIds":null}"#,
        #"{"originalTransactionId":"1","gracePeriodExpiresDate":1700000000000,"renewalPrice":4990}"#,
        #"{"originalTransactionId":"1","priceIncreaseStatus":99}"#,
        #"{"productId":"p"}"#,
    ]

    @Test("every spelling of renewal info reads as JSONDecoder reads it", arguments: renewalSpellings)
    func renewalReadsAlike(_ json: String) {
        Self.expectSameReading(json, as: JWSRenewalInfoDecodedPayload.self)
    }

    static let notificationSpellings = [
        #"{"notificationType":"DID_RENEW","notificationUUID":"u","version":"2.0","signedDate":1,"data":{"bundleId":"b","environment":"Sandbox","signedTransactionInfo":"x.y.z","status":1,"appAppleId":123}}"#,
        #"{"notificationType":"SOMETHING_NEW","subtype":"ALSO_NEW","notificationUUID":"u"}"#,
        #"{"notificationType":"DID_RENEW","notificationUUID":"u","data":null,"summary":null}"#,
        #"{"notificationType":"DID_RENEW","notificationUUID":"u","data":{"status":"1"}}"#,
        #"{"notificationType":"DID_RENEW","notificationUUID":"u","data":{"appAppleId":"123"}}"#,
        #"{"notificationType":"DID_RENEW","notificationUUID":"u","data":[]}"#,
        #"{"notificationType":"RENEWAL_EXTENSION","notificationUUID":"u","summary":{"requestIdentifier":"r","environment":"Sandbox","appAppleId":1,"bundleId":"b","productId":"p","succeededCount":2,"failedCount":0}}"#,
        #"{"notificationType":"DID_RENEW"}"#,
        #"{"notificationType":7,"notificationUUID":"u"}"#,
    ]

    @Test("every spelling of a notification reads as JSONDecoder reads it", arguments: notificationSpellings)
    func notificationReadsAlike(_ json: String) {
        Self.expectSameReading(json, as: ResponseBodyV2DecodedPayload.self)
    }

    @Test("what the canonical reading declines, it declines rather than guessing")
    func declines() {
        #expect(
            JWSTransactionDecodedPayload.canonical(
                Array(#"{"transactionId":"1","originalTransactionId":"1","productId":"p","quantity":"2"}"#.utf8)) == nil
        )
        #expect(
            ResponseBodyV2DecodedPayload.canonical(
                Array(#"{"notificationType":"DID_RENEW","notificationUUID":"u","summary":{}}"#.utf8)) == nil)
        #expect(
            JWSRenewalInfoDecodedPayload.canonical(Array(#"{"originalTransactionId":"1","autoRenewStatus":"1"}"#.utf8))
                == nil)
        let plain = JWSRenewalInfoDecodedPayload.canonical(
            Array(#"{"originalTransactionId":"1","autoRenewStatus":1,"unknown":[{}]}"#.utf8))
        #expect(plain?.autoRenewStatus == .on)
    }
}
