/// How ``StoreKeeper/purchase(productID:promotionalOfferID:)`` ended.
public enum PurchaseResult: Sendable, Hashable {
    /// Bought, stored by the server and finished; the customer's access after it.
    case purchased(CustomerInfo)
    /// The customer closed the sheet.
    case userCancelled
    /// Waiting for approval; access follows through ``StoreKeeper/customerInfoUpdates`` when it comes.
    case pending
}
