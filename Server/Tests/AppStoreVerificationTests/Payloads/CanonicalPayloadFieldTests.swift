import AppStoreModels
import Foundation
import Testing

@testable import AppStoreVerification

/// The canonical payload readers list Apple's fields by hand: these specs enumerate the models' own fields
/// (`Mirror`) so a field a model gains later cannot be dropped silently. Each JSON below sets every field of
/// its model (a new field fails the first check until it is added here), and the canonical reading of it
/// must equal `JSONDecoder`'s — or, for the fields it leaves to `JSONDecoder`, decline the whole payload.
@Suite struct CanonicalPayloadFieldTests {
    static let transaction = #"""
        {"transactionId":"2000000847061981","originalTransactionId":"2000000847061000","productId":"pro.monthly",
         "bundleId":"com.example","webOrderLineItemId":"2000000112","subscriptionGroupIdentifier":"21438","purchaseDate":1767225600000,
         "originalPurchaseDate":1767225500000,"expiresDate":1769904000000,"quantity":1,"type":"Auto-Renewable Subscription",
         "appAccountToken":"7edea87d-98f0-42d0-9682-49ca81022f73","inAppOwnershipType":"PURCHASED","signedDate":1767225601000,
         "revocationReason":1,"revocationDate":1767312000000,"revocationType":"REFUND_PRORATED","revocationPercentage":50000,
         "isUpgraded":true,"offerType":2,"offerIdentifier":"winback50","offerPeriod":"P1M","offerDiscountType":"PAY_AS_YOU_GO",
         "environment":"Sandbox","storefront":"USA","storefrontId":"143441","transactionReason":"RENEWAL","currency":"USD",
         "price":9990,"appTransactionId":"704289572311676241","billingPlanType":"MONTHLY",
         "previousOriginalTransactionId":"2000000847060000"}
        """#

    static let renewal = #"""
        {"originalTransactionId":"2000000847061000","productId":"pro.monthly","autoRenewProductId":"pro.annual","autoRenewStatus":1,
         "expirationIntent":2,"isInBillingRetryPeriod":false,"gracePeriodExpiresDate":1770000000000,"priceIncreaseStatus":0,
         "offerType":3,"offerIdentifier":"SPRING","offerPeriod":"P1W","offerDiscountType":"FREE_TRIAL","signedDate":1767225601000,
         "environment":"Production","recentSubscriptionStartDate":1767225500000,"renewalDate":1769904000000,"currency":"USD",
         "renewalPrice":79990,"eligibleWinBackOfferIds":["w1","w2"],"appAccountToken":"7edea87d-98f0-42d0-9682-49ca81022f73",
         "appTransactionId":"704289572311676241","renewalBillingPlanType":"MONTHLY"}
        """#

    static let notification = #"""
        {"notificationType":"DID_RENEW","subtype":"BILLING_RECOVERY","notificationUUID":"002e14d5-51f5-4503-b5a8-c3a1af68eb20",
         "version":"2.0","signedDate":1767225601000,
         "data":{"environment":"Sandbox","appAppleId":1234567890,"bundleId":"com.example","bundleVersion":"42",
                 "signedTransactionInfo":"a.b.c","signedRenewalInfo":"d.e.f","status":1,"consumptionRequestReason":"UNINTENDED_PURCHASE"}}
        """#

    /// The labels of a value's fields that hold nothing (property wrappers looked through).
    static func unset(_ value: Any) -> [String] {
        Mirror(reflecting: value).children.compactMap { child in
            guard let label = child.label else { return nil }
            return isNil(child.value) ? label.trimmingCharacters(in: CharacterSet(charactersIn: "_")) : nil
        }
    }

    static func isNil(_ value: Any) -> Bool {
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional { return mirror.children.isEmpty }
        // A property wrapper (`Lenient`) holds its optional as its only stored property.
        if mirror.displayStyle == .struct, mirror.children.count == 1, let inner = mirror.children.first,
            inner.label == "wrappedValue"
        {
            return isNil(inner.value)
        }
        return false
    }

    static func both<Payload: CanonicalPayload & Decodable & Equatable>(_ type: Payload.Type, _ json: String) throws
        -> (canonical: Payload?, codable: Payload)
    {
        let bytes = Array(json.utf8)
        return (Payload.canonical(bytes), try JSONDecoder().decode(Payload.self, from: Data(bytes)))
    }

    @Test(
        "a transaction with every field: read canonically exactly as JSONDecoder reads it; commitmentInfo declines it"
    )
    func transactionFields() throws {
        let (canonical, codable) = try Self.both(JWSTransactionDecodedPayload.self, Self.transaction)
        #expect(Self.unset(codable) == ["commitmentInfo"], "fields this spec does not set: \(Self.unset(codable))")
        #expect(canonical == codable)
        let extra =
            #","commitmentInfo":{"billingPeriodNumber":3,"totalBillingPeriods":12,"commitmentExpiresDate":1798761600000,"commitmentPrice":119880}"#
        let (declined, decoded) = try Self.both(
            JWSTransactionDecodedPayload.self, Self.adding(extra, to: Self.transaction))
        #expect(declined == nil)
        let commitment = try #require(decoded.commitmentInfo)
        #expect(Self.unset(commitment).isEmpty, "commitment fields this spec does not set: \(Self.unset(commitment))")
        #expect(commitment.billingPeriodNumber == 3 && commitment.commitmentPrice == 119880)
    }

    @Test("renewal info with every field: read canonically exactly as JSONDecoder reads it; commitmentInfo declines it")
    func renewalFields() throws {
        let (canonical, codable) = try Self.both(JWSRenewalInfoDecodedPayload.self, Self.renewal)
        #expect(Self.unset(codable) == ["commitmentInfo"], "fields this spec does not set: \(Self.unset(codable))")
        #expect(canonical == codable)
        let extra =
            #","commitmentInfo":{"commitmentAutoRenewStatus":0,"commitmentAutoRenewProductId":"pro.annual","commitmentRenewalBillingPlanType":"MONTHLY","commitmentRenewalDate":1798761600000,"commitmentRenewalPrice":119880}"#
        let (declined, decoded) = try Self.both(JWSRenewalInfoDecodedPayload.self, Self.adding(extra, to: Self.renewal))
        #expect(declined == nil)
        let commitment = try #require(decoded.commitmentInfo)
        #expect(Self.unset(commitment).isEmpty, "commitment fields this spec does not set: \(Self.unset(commitment))")
        #expect(commitment.commitmentAutoRenewStatus == .off && commitment.commitmentRenewalBillingPlanType == .monthly)
    }

    /// `json` with `members` (",\"key\":value…") added before its closing brace.
    static func adding(_ members: String, to json: String) -> String {
        var result = json.trimmingCharacters(in: .whitespacesAndNewlines)
        result.insert(contentsOf: members, at: result.index(before: result.endIndex))
        return result
    }

    @Test(
        "a notification with every field its canonical reading handles; summary, externalPurchaseToken and appData decline it"
    )
    func notificationFields() throws {
        let (canonical, codable) = try Self.both(ResponseBodyV2DecodedPayload.self, Self.notification)
        #expect(Set(Self.unset(codable)) == ["summary", "externalPurchaseToken", "appData"], "\(Self.unset(codable))")
        #expect(
            Self.unset(try #require(codable.data)).isEmpty,
            "data fields this spec does not set: \(Self.unset(codable.data!))")
        #expect(canonical == codable)
        for extra in [
            #","summary":{"requestIdentifier":"r","appAppleId":1,"bundleId":"b","productId":"p","succeededCount":1,"failedCount":0}"#,
            #","externalPurchaseToken":{"externalPurchaseId":"x","tokenCreationDate":1767225600000,"appAppleId":1,"bundleId":"b"}"#,
            #","appData":{"appAppleId":1,"bundleId":"b","environment":"Sandbox","signedAppTransactionInfo":"x.y.z"}"#,
        ] {
            let (declined, decoded) = try Self.both(
                ResponseBodyV2DecodedPayload.self, Self.adding(extra, to: Self.notification))
            #expect(declined == nil, "the canonical reader must leave \(extra.prefix(20)) to JSONDecoder")
            #expect(decoded.summary != nil || decoded.externalPurchaseToken != nil || decoded.appData != nil)
        }
    }
}
