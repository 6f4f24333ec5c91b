import Foundation
import StoreKeeperAPI
import StoreKeeperWire

/// The API documents written on every change and uncached read: members in key order, as `JSONEncoder` with
/// sorted keys writes them (each type's `encode(to:)` writes `null` for an absent optional; a
/// ``StoreKeeperAPI/SubscriptionOffer`` leaves its absent identifier out).
extension JSONWriter {
    /// A subscriber document, or `nil` when only `JSONEncoder` can be sure to write it.
    static func json(_ subscriber: Subscriber) -> [UInt8]? {
        var writer = JSONWriter()
        writer.write(subscriber)
        return writer.isExact ? writer.bytes : nil
    }

    /// A webhook event, or `nil` when only `JSONEncoder` can be sure to write it.
    static func json(_ event: WebhookEvent) -> [UInt8]? {
        var writer = JSONWriter(capacity: 2_048)
        writer.object { w in
            w.key("aliases")
            w.array(event.aliases) { $0.value($1) }
            w.key("app")
            w.value(event.app)
            w.key("app_user_id")
            w.value(event.appUserID)
            w.key("cause")
            w.value(event.cause)
            w.key("created_at")
            w.value(event.createdAt)
            w.key("currency")
            w.value(event.currency)
            w.key("entitlements")
            w.array(event.entitlements) { $0.value($1) }
            w.key("environment")
            w.value(event.environment)
            w.key("expires_at")
            w.value(event.expiresAt)
            w.key("id")
            w.value(event.id)
            w.key("original_transaction_id")
            w.value(event.originalTransactionID)
            w.key("period_type")
            w.value(event.periodType)
            w.key("price")
            w.value(event.price)
            w.key("product_id")
            w.value(event.productID)
            w.key("purchased_at")
            w.value(event.purchasedAt)
            w.key("store_timestamp")
            w.value(event.storeTimestamp)
            w.key("subscriber")
            w.write(event.subscriber)
            w.key("transaction_id")
            w.value(event.transactionID)
            w.key("type")
            w.value(event.type)
        }
        return writer.isExact ? writer.bytes : nil
    }

    mutating func write(_ subscriber: Subscriber) {
        object { w in
            w.key("aliases")
            w.array(subscriber.aliases) { $0.value($1) }
            w.key("app_user_id")
            w.value(subscriber.appUserID)
            w.key("entitlements")
            w.array(subscriber.entitlements) { $0.write($1) }
            w.key("first_seen")
            w.value(subscriber.firstSeen)
            w.key("intro_eligibility")
            w.value(subscriber.introEligibility)
            w.key("non_subscriptions")
            w.array(subscriber.nonSubscriptions) { $0.write($1) }
            w.key("subscriptions")
            w.array(subscriber.subscriptions) { $0.write($1) }
        }
    }

    mutating func write(_ entitlement: Entitlement) {
        object { w in
            w.key("expires_at")
            w.value(entitlement.expiresAt)
            w.key("granted_by")
            w.value(entitlement.grantedBy)
            w.key("identifier")
            w.value(entitlement.identifier)
            w.key("product_id")
            w.value(entitlement.productID)
        }
    }

    mutating func write(_ purchase: Purchase) {
        object { w in
            w.key("expires_at")
            w.value(purchase.expiresAt)
            w.key("explanation")
            w.array(purchase.explanation) { $0.value($1) }
            w.key("grants_access")
            w.value(purchase.grantsAccess)
            w.key("kind")
            w.value(purchase.kind)
            w.key("product_id")
            w.value(purchase.productID)
            w.key("purchase_date")
            w.value(purchase.purchaseDate)
            w.key("revoked_at")
            w.value(purchase.revokedAt)
            w.key("transaction_id")
            w.value(purchase.transactionID)
        }
    }

    mutating func write(_ subscription: Subscription) {
        object { w in
            w.key("auto_renew_product_id")
            w.value(subscription.autoRenewProductID)
            w.key("billing_plan")
            w.value(subscription.billingPlan)
            w.key("commitment")
            if let commitment = subscription.commitment { w.write(commitment) } else { w.null() }
            w.key("consent_rescinded_at")
            w.value(subscription.consentRescindedAt)
            w.key("currency")
            w.value(subscription.currency)
            w.key("environment")
            w.value(subscription.environment)
            w.key("expiration_reason")
            w.value(subscription.expirationReason)
            w.key("expires_at")
            w.value(subscription.expiresAt)
            w.key("explanation")
            w.array(subscription.explanation) { $0.value($1) }
            w.key("grace_period_expires_at")
            w.value(subscription.gracePeriodExpiresAt)
            w.key("is_upgraded")
            w.value(subscription.isUpgraded)
            w.key("latest_transaction_id")
            w.value(subscription.latestTransactionID)
            w.key("offer")
            if let offer = subscription.offer { w.write(offer) } else { w.null() }
            w.key("original_transaction_id")
            w.value(subscription.originalTransactionID)
            w.key("ownership")
            w.value(subscription.ownership)
            w.key("previous_original_transaction_id")
            w.value(subscription.previousOriginalTransactionID)
            w.key("price")
            w.value(subscription.price)
            w.key("price_increase_status")
            w.value(subscription.priceIncreaseStatus)
            w.key("product_id")
            w.value(subscription.productID)
            w.key("replaced_by_original_transaction_id")
            w.value(subscription.replacedByOriginalTransactionID)
            w.key("revocation_percentage")
            w.value(subscription.revocationPercentage)
            w.key("revocation_reason")
            w.value(subscription.revocationReason)
            w.key("revocation_type")
            w.value(subscription.revocationType)
            w.key("revoked_at")
            w.value(subscription.revokedAt)
            w.key("status")
            w.value(subscription.status)
            w.key("storefront")
            w.value(subscription.storefront)
            w.key("subscription_group_id")
            w.value(subscription.subscriptionGroupID)
            w.key("will_auto_renew")
            w.value(subscription.willAutoRenew)
        }
    }

    mutating func write(_ offer: SubscriptionOffer) {
        object { w in
            if let identifier = offer.identifier {
                w.key("identifier")
                w.value(identifier)
            }
            w.key("kind")
            w.value(offer.kind)
        }
    }

    mutating func write(_ commitment: SubscriptionCommitment) {
        object { w in
            w.key("billing_period")
            w.value(commitment.billingPeriod)
            w.key("ends_at")
            w.value(commitment.endsAt)
            w.key("price")
            w.value(commitment.price)
            w.key("renews_to_product_id")
            w.value(commitment.renewsToProductID)
            w.key("total_billing_periods")
            w.value(commitment.totalBillingPeriods)
            w.key("will_renew")
            w.value(commitment.willRenew)
        }
    }
}
