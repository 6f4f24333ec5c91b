import AppStoreClient
import Foundation
import StoreKeeperAPI
import StoreKeeperStorage
import StoreKeeperWire
import SubscriptionEngine

/// Support moving a purchase to another account of the app: Apple's Set App Account Token on one of the customer's
/// purchases, then Apple's signed view of it stored (``PurchaseSupport``), so the customer's evidence carries the
/// new token at once.
struct SupportAppAccountTokens: Sendable {
    let purchases: PurchaseSupport

    /// The event each change writes.
    static let eventType = "app_account_token_set"

    /// Sets `originalTransactionID`'s app account token, a purchase of `appUserID` in the caller's project.
    /// - Throws: `missing_field` or `invalid_app_account_token` naming the value; `transaction_not_found`;
    ///   `api_credentials_missing`; Apple's unavailability. Nothing is written unless Apple set it.
    func set(_ body: AppAccountTokenPost, appUserID: String, originalTransactionID: String, bundleID: String)
        async throws -> AppAccountTokenChange
    {
        let appUserID = try CustomerID.normalized(appUserID)
        guard let text = body.appAccountToken else {
            throw ServiceError.invalid(.missingField, "app_account_token is required (a UUID)")
        }
        guard let token = UUID(uuidString: text)?.uuidString.lowercased() else {
            throw ServiceError.invalid(
                .invalidAppAccountToken, "app_account_token \(UntrustedText.quoted(text)) is not a UUID")
        }
        let project = try purchases.intake.apps.project(bundleID)
        let stored = try await purchases.requireOwned(originalTransactionID, by: appUserID, in: project)
        // Each transaction as its observations fold (a later one's token wins), the newest purchase's token.
        let ofPurchase = stored.mergedTransactions.filter { $0.originalTransactionID == originalTransactionID }
        let previous = ofPurchase.max { ($0.purchaseDate ?? .distantPast) < ($1.purchaseDate ?? .distantPast) }?
            .appAccountToken
        let (app, credentials, _) = try await purchases.askApple(
            "Set App Account Token", about: originalTransactionID, in: project
        ) { credentials in
            do {
                try await purchases.intake.client.setAppAccountToken(
                    originalTransactionID: originalTransactionID, token: token, credentials: credentials)
            } catch let error as AppStoreClientError where error.status == 400 {
                throw ServiceError.invalid(.invalidAppAccountToken, "Apple refused the token: \(error.reason)")
            }
        }
        try await purchases.storeApplesView(
            of: originalTransactionID, subscription: ofPurchase.contains { $0.expiresAt != nil }, app: app,
            credentials: credentials, appUserID: appUserID, eventType: Self.eventType,
            detail: [
                "original_transaction_id": .string(originalTransactionID), "app_account_token": .string(token),
            ])
        return AppAccountTokenChange(
            originalTransactionID: originalTransactionID, appAccountToken: token, previousAppAccountToken: previous)
    }
}
