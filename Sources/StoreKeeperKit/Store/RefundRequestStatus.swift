/// What the customer did with the App Store's refund request sheet (StoreKit 2 `Transaction.RefundRequestStatus`).
/// Apple decides a submitted request later; a granted refund reaches the server as a notification.
public enum RefundRequestStatus: String, Sendable, Hashable {
    /// The customer submitted the request.
    case success
    /// The customer closed the sheet without submitting.
    case userCancelled
}
