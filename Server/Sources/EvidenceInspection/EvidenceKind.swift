/// What a piece of input is, as `storekeeper inspect` reports it.
public enum EvidenceKind: String, Sendable, Hashable, CaseIterable {
    /// A base64 (or raw DER) PKCS#7 app receipt.
    case receipt
    /// A StoreKit 2 signed transaction.
    case jwsTransaction = "jws_transaction"
    /// StoreKit 2 signed renewal info.
    case jwsRenewalInfo = "jws_renewal_info"
    /// A signed app transaction.
    case jwsAppTransaction = "jws_app_transaction"
    /// An App Store Server Notification V2 (`{"signedPayload"}` body or the bare JWS).
    case notificationV2 = "notification_v2"
    /// An App Store Server Notification V1 JSON body.
    case notificationV1 = "notification_v1"
    /// A verifyReceipt response.
    case verifyReceiptResponse = "verify_receipt_response"
    /// Nothing we recognise.
    case unknown
}
