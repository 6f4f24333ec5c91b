import AppStoreSigning
import AppStoreSimulator
import Foundation
import StoreKeeperCLI

/// Signs one subscriber's daily renewal history as Apple's servers would with the simulator's keys: the first
/// purchase (a StoreKit 2 signed transaction the app posts) and each renewal (a V2 `DID_RENEW` notification with
/// its signed transaction and renewal info), so a benchmark can give subscribers any number of renewals without
/// waiting for a clock.
struct RenewalHistorySigner: Sendable {
    /// The simulator's signing keys (the server trusts their root).
    let pki: SimulatorPKI
    let bundleID: String
    let productID: String
    /// The first purchase of every history, in milliseconds since 1970; period `n` runs one day from
    /// `start + n` days.
    let start: Int64

    static let day: Int64 = 86_400_000

    /// The transaction of period `period` (0 is the purchase) of subscription `original`.
    func transaction(original: String, period: Int) throws -> String {
        let purchased = start + Int64(period) * Self.day
        let payload: [String: Any] = [
            "transactionId": period == 0 ? original : "\(original)\(String(format: "%05d", period))",
            "originalTransactionId": original, "productId": productID, "bundleId": bundleID,
            "purchaseDate": purchased, "originalPurchaseDate": start, "expiresDate": purchased + Self.day,
            "type": "Auto-Renewable Subscription", "inAppOwnershipType": "PURCHASED", "signedDate": purchased,
            "environment": "Sandbox", "transactionReason": period == 0 ? "PURCHASE" : "RENEWAL",
            "webOrderLineItemId": "\(original)\(period)", "storefront": "USA", "storefrontId": "143441",
            "price": 4990, "currency": "USD", "subscriptionGroupIdentifier": "21000001",
        ]
        return try sign(payload)
    }

    /// The V2 `DID_RENEW` notification body (`{"signedPayload": …}`) of period `period` (1 or later).
    func renewal(original: String, period: Int) throws -> Data {
        let renewed = start + Int64(period) * Self.day
        let renewalInfo: [String: Any] = [
            "originalTransactionId": original, "autoRenewProductId": productID, "productId": productID,
            "autoRenewStatus": 1, "signedDate": renewed, "environment": "Sandbox",
            "recentSubscriptionStartDate": start, "renewalDate": renewed + Self.day,
        ]
        let payload: [String: Any] = [
            "notificationType": "DID_RENEW", "notificationUUID": UUID().uuidString.lowercased(), "version": "2.0",
            "signedDate": renewed,
            "data": [
                "bundleId": bundleID, "environment": "Sandbox", "status": 1,
                "signedTransactionInfo": try transaction(original: original, period: period),
                "signedRenewalInfo": try sign(renewalInfo),
            ],
        ]
        return try JSONSerialization.data(withJSONObject: ["signedPayload": try sign(payload)])
    }

    func sign(_ payload: [String: Any]) throws -> String {
        try JWSSigner.sign(
            Array(try JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys])),
            chain: pki.signedData.chainDER, key: pki.signedData.leafKey)
    }
}
