import Foundation
import StoreKeeperAPI
import StoreKeeperBench
import StoreKeeperCLI
import StoreKeeperWire

/// What `bench` measures of the API's JSON: a subscriber document written by its ``JSONWritable`` fast path
/// (`document.write`, as every change and uncached read writes it) and by `JSONEncoder` (`document.encode`, the
/// path it replaced), so the fast path's worth is a ratio measured in the same run.
enum BenchDocuments {
    /// A customer with two renewing subscriptions, a lifetime purchase and three entitlements, every field set.
    static var subscriber: Subscriber {
        let now = Date(timeIntervalSince1970: 1_767_225_600)
        let subscriptions = (1...2).map { index in
            var subscription = Subscription(
                originalTransactionID: "200000100000000\(index)", productID: "premium.monthly", status: "active",
                latestTransactionID: "200000100000009\(index)")
            subscription.subscriptionGroupID = "21000001"
            subscription.expiresAt = now.addingTimeInterval(30 * 86_400)
            subscription.willAutoRenew = true
            subscription.autoRenewProductID = "premium.monthly"
            subscription.offer = SubscriptionOffer(kind: "introductory", identifier: nil)
            subscription.ownership = "PURCHASED"
            subscription.environment = "Production"
            subscription.storefront = "USA"
            subscription.price = 9_990
            subscription.currency = "USD"
            subscription.explanation = [
                "active: expires 2026-01-31T00:00:00Z, after now", "auto-renew on: renews to premium.monthly",
            ]
            return subscription
        }
        let lifetime = Purchase(
            transactionID: "2000001000000100", productID: "lifetime", kind: "non_consumable", purchaseDate: now,
            expiresAt: nil, revokedAt: nil, grantsAccess: true, explanation: ["a lifetime purchase, not revoked"])
        return Subscriber(
            appUserID: "user-7d1c9f", aliases: ["$anonymous:5f0e6c9e-0c4b-4a0e-9d55-0d3c1d0f7a21"], firstSeen: now,
            entitlements: ["pro", "sync", "themes"].map {
                Entitlement(identifier: $0, productID: "premium.monthly", expiresAt: now, grantedBy: "2000001000000001")
            },
            subscriptions: subscriptions, nonSubscriptions: [lifetime],
            introEligibility: ["premium.monthly": "ineligible", "premium.annual": "eligible"])
    }

    /// The two measurements.
    static func measure(with runner: BenchRunner) throws -> [BenchResult] {
        let subscriber = subscriber
        let encoder = APICoding.encoder()
        guard let written = JSONWriter.exactJSON(subscriber), written == Array(try encoder.encode(subscriber)) else {
            throw CommandFailure("the fast path and JSONEncoder wrote different documents")
        }
        return [
            runner.measure("document.write") { precondition(JSONWriter.exactJSON(subscriber) != nil) },
            try runner.measureThrowing("document.encode") { _ = try encoder.encode(subscriber) },
        ]
    }
}
