import AppStoreModels
import AppStoreSigning
import Foundation

extension AppStoreSimulator {
    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }

    /// `date` at a whole millisecond, as every date Apple puts on the wire is (JSON or signed).
    static func wireDate(_ date: Date) -> Date { Date(timeIntervalSince1970: Double(milliseconds(date)) / 1000) }

    /// Canonical JSON (sorted keys) so equal inputs give equal bytes.
    static func json(_ object: [String: Any]) -> Data {
        CompactJSON.data(object)
    }

    func sign(_ object: [String: Any]) -> String {
        let data = Self.json(object)
        // Signing with a key we generated cannot fail short of memory exhaustion.
        return (try? JWSSigner.sign(Array(data), encodedHeader: signingHeader, key: pki.signedData.leafKey)) ?? ""
    }

    /// A transaction as Apple signs it (`JWSTransaction`).
    func transactionPayload(_ t: SimulatedTransaction, signedAt: Date) -> [String: Any] {
        var object: [String: Any] = [
            "transactionId": t.transactionID, "originalTransactionId": t.originalTransactionID,
            "webOrderLineItemId": t.webOrderLineItemID, "bundleId": t.bundleID, "productId": t.productID,
            "purchaseDate": Self.milliseconds(t.purchaseDate),
            "originalPurchaseDate": Self.milliseconds(t.originalPurchaseDate),
            "quantity": 1, "type": t.type, "inAppOwnershipType": t.ownership, "signedDate": Self.milliseconds(signedAt),
            "environment": configuration.environment, "transactionReason": t.reason, "storefront": t.storefront,
            "storefrontId": t.storefront == "JPN" ? "143462" : "143441", "price": t.price, "currency": t.currency,
            "appTransactionId": Self.appTransactionID(t.bundleID + "\n" + t.customerID),
        ]
        if let group = t.subscriptionGroupID { object["subscriptionGroupIdentifier"] = group }
        if let expires = t.expiresDate { object["expiresDate"] = Self.milliseconds(expires) }
        if let offerType = t.offerType { object["offerType"] = offerType }
        if let identifier = t.offerIdentifier { object["offerIdentifier"] = identifier }
        if let discount = t.offerDiscountType { object["offerDiscountType"] = discount }
        if let period = t.offerPeriod { object["offerPeriod"] = period }
        if let revoked = t.revocationDate { object["revocationDate"] = Self.milliseconds(revoked) }
        if let reason = t.revocationReason { object["revocationReason"] = reason }
        if let type = t.revocationType { object["revocationType"] = type }
        if let percentage = t.revocationPercentage { object["revocationPercentage"] = percentage }
        if t.expiresDate != nil { object["isUpgraded"] = t.isUpgraded }
        if let token = t.appAccountToken { object["appAccountToken"] = token }
        if let plan = t.billingPlanType { object["billingPlanType"] = plan }
        if let period = t.commitmentPeriod, let ends = t.commitmentExpiresDate {
            object["commitmentInfo"] = [
                "billingPeriodNumber": period, "totalBillingPeriods": SimulatedProduct.commitmentPeriods,
                "commitmentExpiresDate": Self.milliseconds(ends), "commitmentPrice": t.commitmentPrice ?? 0,
            ]
        }
        if let previous = t.previousOriginalTransactionID { object["previousOriginalTransactionId"] = previous }
        return object
    }

    /// Renewal info as Apple signs it (`JWSRenewalInfo`).
    func renewalPayload(_ s: SimulatedSubscription, signedAt: Date) -> [String: Any] {
        var object: [String: Any] = [
            "originalTransactionId": s.originalTransactionID, "productId": s.productID,
            "autoRenewProductId": s.autoRenewProductID, "autoRenewStatus": s.autoRenewEnabled ? 1 : 0,
            "signedDate": Self.milliseconds(signedAt), "environment": configuration.environment,
            "recentSubscriptionStartDate": Self.milliseconds(s.recentStart),
            "isInBillingRetryPeriod": s.status == .billingRetry || s.status == .billingGracePeriod,
        ]
        if s.status == .active || s.status == .billingGracePeriod || s.status == .billingRetry {
            object["renewalDate"] = Self.milliseconds(s.periodEnd)
        }
        if let intent = s.expirationIntent, s.status != .active { object["expirationIntent"] = intent }
        if let grace = s.graceEndsAt { object["gracePeriodExpiresDate"] = Self.milliseconds(grace) }
        if let status = s.priceIncreaseStatus { object["priceIncreaseStatus"] = status }
        if let offerID = s.pendingPromotionalOfferID {
            object["offerType"] = 2
            object["offerIdentifier"] = offerID
        }
        if let product = apps[s.bundleID]?.product(s.autoRenewProductID) {
            object["currency"] = "USD"
            object["renewalPrice"] = s.pendingPrice ?? product.prices["USA"] ?? product.prices.values.first ?? 0
            if let monthly = product.monthlyCommitmentPrices {
                object["renewalBillingPlanType"] = s.commitmentPeriod == nil ? "BILLED_UPFRONT" : "MONTHLY"
                if let ends = s.commitmentEndsAt {
                    let price = monthly["USA"] ?? monthly.values.first ?? 0
                    object["renewalPrice"] = price
                    object["commitmentInfo"] = [
                        "commitmentAutoRenewStatus": s.commitmentAutoRenewEnabled == false ? 0 : 1,
                        "commitmentAutoRenewProductId": s.autoRenewProductID,
                        "commitmentRenewalBillingPlanType": "MONTHLY",
                        "commitmentRenewalDate": Self.milliseconds(ends),
                        "commitmentRenewalPrice": price * Int64(SimulatedProduct.commitmentPeriods),
                    ]
                }
            }
        }
        if let token = s.appAccountToken { object["appAccountToken"] = token }
        let winBack = eligibleWinBackOfferIDs(s)
        if !winBack.isEmpty { object["eligibleWinBackOfferIds"] = winBack }
        return object
    }

    /// A signed transaction by id.
    func signedTransaction(_ id: String, at date: Date) -> String? {
        transactions[id].map { sign(transactionPayload($0, signedAt: date)) }
    }

    /// Signed renewal info for a subscription.
    func signedRenewalInfo(_ originalTransactionID: String, at date: Date) -> String? {
        subscriptions[originalTransactionID].map { sign(renewalPayload($0, signedAt: date)) }
    }
}
