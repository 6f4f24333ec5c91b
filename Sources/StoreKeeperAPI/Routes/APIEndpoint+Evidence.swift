/// The routes that bring evidence in: receipts, signed transactions, Apple's notifications, imports and offer
/// signatures.
extension APIEndpoint {
    /// `POST /v1/receipts`: verify and store an app receipt.
    public static let postReceipt = APIEndpoint(
        .post, "v1/receipts", .publicKey,
        APIOperation(
            "Post an app receipt (legacy StoreKit 1 evidence)", body: .type(ReceiptPost.self),
            answer: APIOperation.json(.type(SubscriberResponse.self)),
            errors: ["400", "401", "403", "413", "422", "502", "504", "5XX"]))
    /// `POST /v1/transactions`: verify and store a StoreKit 2 signed transaction.
    public static let postTransaction = APIEndpoint(
        .post, "v1/transactions", .publicKey,
        APIOperation(
            "Post a StoreKit 2 signed transaction", body: .type(TransactionPost.self),
            answer: APIOperation.json(.type(SubscriberResponse.self)),
            errors: ["400", "401", "403", "413", "422", "504", "5XX"]))
    /// `POST /v1/notifications/appstore`: App Store Server Notifications V1 and V2.
    public static let postNotification = APIEndpoint(
        .post, "v1/notifications/appstore", .apple,
        APIOperation(
            "App Store Server Notifications V2 (signedPayload) and V1", body: .object,
            answer: APIOperation.json(.type(NotificationReceipt.self)),
            errors: ["400", "401", "403", "413", "422", "5XX"]))
    /// `POST /v1/imports`: bring in an existing customer by original transaction id or receipt.
    public static let postImport = APIEndpoint(
        .post, "v1/imports", .secretKey(.admin),
        APIOperation(
            "Bring in an existing customer by original transaction id (App Store Server API) or receipt",
            body: .type(ImportPost.self), answer: APIOperation.json(.type(SubscriberResponse.self)),
            errors: ["400", "401", "403", "409", "413", "422", "5XX"]))
    /// `POST /v1/offers/sign`: a promotional offer signature.
    public static let postOfferSignature = APIEndpoint(
        .post, "v1/offers/sign", .secretKey(.admin),
        APIOperation(
            "Sign a promotional offer", body: .type(OfferSignatureRequest.self),
            answer: APIOperation.json(.type(OfferSignature.self)), errors: ["400", "401", "403", "409", "413", "5XX"]))

    /// This feature's routes, in the order the OpenAPI document lists them.
    static let evidenceRoutes: [APIEndpoint] = [
        postReceipt, postTransaction, postNotification, postImport, postOfferSignature,
    ]
}
