import AppStoreModels
import Foundation
import SubscriptionEngine

/// A compact way to write subscription lifecycles as the evidence Apple would send, in Apple's own field
/// names and shapes (JWS payload JSON, verifyReceipt items, V1 bodies), decoded through `AppStoreModels`.
enum Apple {
    /// 2024-01-01T00:00:00Z plus `days` (fractions allowed).
    static func day(_ days: Double) -> Date { Date(timeIntervalSince1970: 1_704_067_200 + days * 86_400) }
    static func ms(_ days: Double) -> Int64 { Int64(day(days).timeIntervalSince1970 * 1000) }

    static func decode<T: Decodable>(_ type: T.Type, _ object: [String: Any]) -> T {
        let data = try! JSONSerialization.data(withJSONObject: object)
        return try! JSONDecoder().decode(type, from: data)
    }

    /// A StoreKit 2 signed transaction payload (as `JWSTransactionDecodedPayload`).
    static func transaction(
        _ id: String, original: String? = nil, product: String = "monthly", bought: Double, expires: Double? = nil,
        signed: Double? = nil, type: String = "Auto-Renewable Subscription", group: String? = "G1",
        offerType: Int? = nil, discount: String? = nil, offerID: String? = nil, revoked: Double? = nil,
        revocationReason: Int? = nil, revocationType: String? = nil, upgraded: Bool? = nil,
        ownership: String = "PURCHASED", reason: String? = nil, price: Int? = nil, extra: [String: Any] = [:]
    ) -> JWSTransactionDecodedPayload {
        var object: [String: Any] = [
            "transactionId": id, "originalTransactionId": original ?? id, "productId": product,
            "bundleId": "com.example.app", "purchaseDate": ms(bought), "originalPurchaseDate": ms(bought),
            "quantity": 1, "type": type, "inAppOwnershipType": ownership, "environment": "Sandbox",
            "signedDate": ms(signed ?? bought), "storefront": "USA", "storefrontId": "143441", "currency": "USD",
            "transactionReason": reason ?? (original == nil || original == id ? "PURCHASE" : "RENEWAL"),
        ]
        if let expires { object["expiresDate"] = ms(expires) }
        if let group { object["subscriptionGroupIdentifier"] = group }
        if let offerType { object["offerType"] = offerType }
        if let discount { object["offerDiscountType"] = discount }
        if let offerID { object["offerIdentifier"] = offerID }
        if let revoked { object["revocationDate"] = ms(revoked) }
        if let revocationReason { object["revocationReason"] = revocationReason }
        if let revocationType { object["revocationType"] = revocationType }
        if let upgraded { object["isUpgraded"] = upgraded }
        if let price { object["price"] = price }
        object.merge(extra) { _, new in new }
        return decode(JWSTransactionDecodedPayload.self, object)
    }

    /// StoreKit 2 signed renewal info.
    static func renewal(
        _ original: String, product: String = "monthly", renewsTo: String? = nil, autoRenew: Bool = true,
        signed: Double, intent: Int? = nil, billingRetry: Bool? = nil, graceUntil: Double? = nil,
        priceIncrease: Int? = nil, extra: [String: Any] = [:]
    ) -> JWSRenewalInfoDecodedPayload {
        var object: [String: Any] = [
            "originalTransactionId": original, "productId": product, "autoRenewProductId": renewsTo ?? product,
            "autoRenewStatus": autoRenew ? 1 : 0, "signedDate": ms(signed), "environment": "Sandbox",
        ]
        if let intent { object["expirationIntent"] = intent }
        if let billingRetry { object["isInBillingRetryPeriod"] = billingRetry }
        if let graceUntil { object["gracePeriodExpiresDate"] = ms(graceUntil) }
        if let priceIncrease { object["priceIncreaseStatus"] = priceIncrease }
        object.merge(extra) { _, new in new }
        return decode(JWSRenewalInfoDecodedPayload.self, object)
    }

    /// A verifyReceipt `latest_receipt_info` / `in_app` item: every value a string, three keys per date.
    static func receiptItem(
        _ id: String, original: String, product: String = "monthly", bought: Double, expires: Double? = nil,
        trial: Bool = false, intro: Bool = false, cancelled: Double? = nil, upgraded: Bool = false, group: String = "G1"
    ) -> [String: Any] {
        func triple(_ key: String, _ days: Double) -> [String: Any] {
            let date = day(days)
            return [
                key: AppleDateFormat.etcGMT(date), key + "_ms": String(ms(days)),
                key + "_pst": AppleDateFormat.etcGMT(date).replacingOccurrences(
                    of: "Etc/GMT", with: "America/Los_Angeles"),
            ]
        }
        var item: [String: Any] = [
            "quantity": "1", "product_id": product, "transaction_id": id, "original_transaction_id": original,
            "is_trial_period": trial ? "true" : "false", "is_in_intro_offer_period": intro ? "true" : "false",
            "subscription_group_identifier": group, "in_app_ownership_type": "PURCHASED",
            "web_order_line_item_id": "9\(id)",
        ]
        item.merge(triple("purchase_date", bought)) { $1 }
        item.merge(triple("original_purchase_date", bought)) { $1 }
        if let expires { item.merge(triple("expires_date", expires)) { $1 } }
        if let cancelled {
            item.merge(triple("cancellation_date", cancelled)) { $1 }
            item["cancellation_reason"] = "0"
        }
        if upgraded { item["is_upgraded"] = "true" }
        return item
    }

    /// A `pending_renewal_info` item.
    static func pendingRenewal(
        _ original: String, product: String = "monthly", renewsTo: String? = nil, autoRenew: Bool = true,
        intent: Int? = nil, billingRetry: Bool = false, graceUntil: Double? = nil
    ) -> [String: Any] {
        var item: [String: Any] = [
            "original_transaction_id": original, "product_id": product, "auto_renew_product_id": renewsTo ?? product,
            "auto_renew_status": autoRenew ? "1" : "0", "is_in_billing_retry_period": billingRetry ? "1" : "0",
        ]
        if let intent { item["expiration_intent"] = String(intent) }
        if let graceUntil {
            item["grace_period_expires_date_ms"] = String(ms(graceUntil))
            item["grace_period_expires_date"] = AppleDateFormat.etcGMT(day(graceUntil))
        }
        return item
    }

    /// A verifyReceipt response made at `requested`.
    static func verifyReceipt(requested: Double, items: [[String: Any]], pending: [[String: Any]] = [])
        -> VerifyReceiptResponse
    {
        let receipt: [String: Any] = [
            "receipt_type": "ProductionSandbox", "bundle_id": "com.example.app", "in_app": items,
            "request_date_ms": String(ms(requested)), "receipt_creation_date_ms": String(ms(requested)),
        ]
        return decode(
            VerifyReceiptResponse.self,
            [
                "status": 0, "environment": "Sandbox", "receipt": receipt, "latest_receipt_info": items,
                "pending_renewal_info": pending,
            ])
    }

    /// A V1 notification body.
    static func notificationV1(
        _ type: String, items: [[String: Any]], pending: [[String: Any]] = [], autoRenew: Bool = true
    ) -> NotificationV1Body {
        decode(
            NotificationV1Body.self,
            [
                "notification_type": type, "password": "secret", "environment": "Sandbox", "bid": "com.example.app",
                "auto_renew_status": autoRenew ? "true" : "false",
                "unified_receipt": [
                    "status": 0, "environment": "Sandbox", "latest_receipt_info": items,
                    "pending_renewal_info": pending,
                ],
            ])
    }

    /// A V2 notification payload.
    static func notificationV2(_ type: String, subtype: String? = nil, signed: Double) -> ResponseBodyV2DecodedPayload {
        var object: [String: Any] = [
            "notificationType": type, "notificationUUID": UUID().uuidString, "version": "2.0", "signedDate": ms(signed),
            "data": ["bundleId": "com.example.app", "environment": "Sandbox"],
        ]
        if let subtype { object["subtype"] = subtype }
        return decode(ResponseBodyV2DecodedPayload.self, object)
    }
}

/// One piece of evidence in a scenario.
enum Evidence: Sendable {
    case transaction(JWSTransactionDecodedPayload)
    case renewal(JWSRenewalInfoDecodedPayload)
    case verifyReceipt(VerifyReceiptResponse)
    case notificationV1(NotificationV1Body)
    case notificationV2(ResponseBodyV2DecodedPayload, JWSTransactionDecodedPayload?, JWSRenewalInfoDecodedPayload?)
    case consentRescission(ConsentRescission)

    func add(to set: inout EvidenceSet) {
        switch self {
        case .transaction(let payload): set.add(transaction: payload)
        case .renewal(let payload): set.add(renewalInfo: payload)
        case .consentRescission(let rescission): set.insert(rescission)
        case .verifyReceipt(let response): set.add(verifyReceiptResponse: response)
        case .notificationV1(let body): set.add(notificationV1: body)
        case .notificationV2(let payload, let transaction, let renewal):
            set.add(notificationV2: payload, transaction: transaction, renewalInfo: renewal)
        }
    }
}

/// What must hold at one instant.
struct Expectation: Sendable {
    /// Which history an expectation reads.
    enum View: Sendable {
        /// What StoreKeeper knew at the instant: evidence observed by then (the server's answer; `--known-at`).
        case asKnownThen
        /// The instant reconstructed from all the evidence (`state --at`).
        case asItHappened
    }

    var day: Double
    var original: String? = "1"
    var status: SubscriptionState.Status? = nil
    var product: String? = nil
    var expires: Double? = nil
    var graceUntil: Double? = nil
    var reason: ExpirationReason?? = .none
    var willAutoRenew: Bool? = nil
    var renewsTo: String? = nil
    var offer: Offer.Kind? = nil
    var offerID: String? = nil
    var entitlements: [String: Double?]? = nil
    var noSubscription = false
    var check: (@Sendable (CustomerState) -> Bool)? = nil
    var view: View = .asKnownThen

    /// The engine's answer this expectation is about.
    func state(_ engine: SubscriptionEngine, _ evidence: EvidenceSet) -> CustomerState {
        let instant = Apple.day(day)
        return engine.evaluate(evidence, at: instant, knownAt: view == .asKnownThen ? instant : nil)
    }
}

/// A lifecycle: evidence and what must hold at several instants.
struct Scenario: Sendable, CustomStringConvertible {
    var name: String
    var evidence: [Evidence]
    var expectations: [Expectation]
    var configuration = Scenario.defaultConfiguration
    var description: String { name }

    static let defaultConfiguration: EngineConfiguration = {
        var configuration = EngineConfiguration()
        configuration.entitlements = [
            "monthly": ["pro"], "annual": ["pro"], "premium": ["pro", "premium"], "basic": ["basic"],
            "lifetime": ["pro"], "season_pass": ["pass"], "coins": ["coins"], "g2_monthly": ["extras"],
        ]
        configuration.subscriptionGroups = [
            "monthly": "G1", "annual": "G1", "premium": "G1", "basic": "G1", "g2_monthly": "G2",
        ]
        configuration.nonRenewingDurations = ["season_pass": 90 * 86_400]
        configuration.consumables = ["coins"]
        return configuration
    }()

    func evidenceSet(order: [Int]? = nil) -> EvidenceSet {
        var set = EvidenceSet()
        for index in order ?? Array(evidence.indices) { evidence[index].add(to: &set) }
        return set
    }
}
