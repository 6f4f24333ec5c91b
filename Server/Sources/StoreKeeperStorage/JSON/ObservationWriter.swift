import AppStoreModels
import Foundation
import SubscriptionEngine

/// Writes one observation (a transaction or renewal state) as the JSON `JSONEncoder` with `.sortedKeys`
/// writes for it — the same bytes — or returns `nil` when it cannot be sure to (see ``SortedJSONObject``),
/// for ``EvidenceEncoder`` to encode it the generic way.
enum ObservationWriter {
    /// A transaction's JSON.
    static func json(_ transaction: Transaction) -> [UInt8]? {
        var object = SortedJSONObject()
        object.add("transactionID", transaction.transactionID)
        object.add("originalTransactionID", transaction.originalTransactionID)
        object.add("productID", transaction.productID)
        object.add("kind", transaction.kind?.rawValue)
        object.add("subscriptionGroupID", transaction.subscriptionGroupID)
        object.add("purchaseDate", transaction.purchaseDate)
        object.add("originalPurchaseDate", transaction.originalPurchaseDate)
        object.add("expiresAt", transaction.expiresAt)
        object.add("revokedAt", transaction.revokedAt)
        add(&object, "revocationReason", transaction.revocationReason)
        add(&object, "revocationType", transaction.revocationType)
        object.add("revocationPercentage", transaction.revocationPercentage)
        object.add("isUpgraded", transaction.isUpgraded)
        object.add("offer", json: transaction.offer.map(json))
        add(&object, "ownership", transaction.ownership)
        add(&object, "environment", transaction.environment)
        object.add("storefront", transaction.storefront)
        object.add("price", transaction.price)
        object.add("currency", transaction.currency)
        object.add("webOrderLineItemID", transaction.webOrderLineItemID)
        object.add("appAccountToken", transaction.appAccountToken)
        object.add("quantity", transaction.quantity)
        object.add("appTransactionID", transaction.appTransactionID)
        object.add("previousOriginalTransactionID", transaction.previousOriginalTransactionID)
        add(&object, "billingPlan", transaction.billingPlan)
        object.add("commitmentPeriod", transaction.commitmentPeriod)
        object.add("commitmentPeriods", transaction.commitmentPeriods)
        object.add("commitmentEndsAt", transaction.commitmentEndsAt)
        object.add("commitmentPrice", transaction.commitmentPrice)
        object.add("observedAt", transaction.observedAt)
        object.add("source", transaction.source.rawValue)
        return object.isWritable ? object.bytes : nil
    }

    /// A renewal state's JSON.
    static func json(_ renewal: RenewalState) -> [UInt8]? {
        var object = SortedJSONObject()
        object.add("originalTransactionID", renewal.originalTransactionID)
        object.add("productID", renewal.productID)
        object.add("autoRenewProductID", renewal.autoRenewProductID)
        object.add("willAutoRenew", renewal.willAutoRenew)
        add(&object, "expirationIntent", renewal.expirationIntent)
        object.add("isInBillingRetry", renewal.isInBillingRetry)
        object.add("gracePeriodExpiresAt", renewal.gracePeriodExpiresAt)
        add(&object, "priceIncreaseStatus", renewal.priceIncreaseStatus)
        object.add("offer", json: renewal.offer.map(json))
        object.add("renewalDate", renewal.renewalDate)
        add(&object, "environment", renewal.environment)
        object.add("commitmentWillAutoRenew", renewal.commitmentWillAutoRenew)
        object.add("commitmentAutoRenewProductID", renewal.commitmentAutoRenewProductID)
        object.add("commitmentRenewalDate", renewal.commitmentRenewalDate)
        object.add("observedAt", renewal.observedAt)
        object.add("source", renewal.source.rawValue)
        return object.isWritable ? object.bytes : nil
    }

    static func json(_ offer: Offer) -> [UInt8] {
        var object = SortedJSONObject()
        object.add("kind", offer.kind.rawValue)
        object.add("identifier", offer.identifier)
        return object.bytes
    }

    /// An enumeration Apple extends, written as its raw value (a string or an integer).
    static func add<Enumeration: OpenEnum>(_ object: inout SortedJSONObject, _ key: String, _ value: Enumeration?) {
        guard let raw = value?.rawValue else { return }
        if let text = raw as? String {
            object.add(key, text)
        } else if let number = raw as? Int {
            object.add(key, number)
        } else {
            object.decline()
        }
    }
}
