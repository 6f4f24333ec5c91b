public import AppStoreModels
public import AppStoreVerification

/// The typed content of evidence that verified, for callers that act on it (e.g. `storekeeper state`).
public enum InspectedEvidence: Sendable {
    /// A verified app receipt in verifyReceipt's `receipt` form.
    case receipt(ReceiptInfo)
    /// A verified StoreKit 2 transaction.
    case transaction(JWSTransactionDecodedPayload)
    /// Verified StoreKit 2 renewal info.
    case renewalInfo(JWSRenewalInfoDecodedPayload)
    /// A verified app transaction.
    case appTransaction(AppTransactionDecodedPayload)
    /// A verified V2 notification with its nested payloads.
    case notificationV2(VerifiedNotification)
    /// A V1 notification body, its `password` removed.
    case notificationV1(NotificationV1Body)
    /// A verifyReceipt response.
    case verifyReceiptResponse(VerifyReceiptResponse)
}
