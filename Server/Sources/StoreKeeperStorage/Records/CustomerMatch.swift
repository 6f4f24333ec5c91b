/// One customer a search found, and by what.
public struct CustomerMatch: Sendable, Hashable {
    /// What the searched text matched.
    public enum Field: String, Sendable, Hashable, CaseIterable {
        /// The app user id, exactly or as its beginning.
        case appUserID = "app_user_id"
        /// An alias merged into the customer, exactly or as its beginning.
        case alias
        /// The original transaction id of one of the customer's purchases.
        case originalTransactionID = "original_transaction_id"
        /// A later transaction of one of the customer's purchases (Apple's Get Transaction Info).
        case transactionID = "transaction_id"
        /// The order id on the customer's emailed receipt (Apple's Look Up Order ID).
        case orderID = "order_id"
        /// The app account token of one of the customer's purchases.
        case appAccountToken = "app_account_token"
        /// The `$email` attribute.
        case email
    }

    /// The customer's app user id (without its project).
    public let appUserID: String
    /// What matched.
    public let field: Field

    /// Makes a match.
    public init(appUserID: String, field: Field) {
        self.appUserID = appUserID
        self.field = field
    }
}
