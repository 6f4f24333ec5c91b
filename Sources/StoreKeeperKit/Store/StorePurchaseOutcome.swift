/// How the store ended a purchase.
public enum StorePurchaseOutcome: Sendable, Hashable {
    /// Bought: send the transaction, then finish it.
    case purchased(StoreTransaction)
    /// The customer closed the sheet.
    case userCancelled
    /// Waiting for someone else (Ask to Buy, Strong Customer Authentication); the transaction arrives later
    /// through ``PurchaseStore/transactionUpdates()``.
    case pending
}
