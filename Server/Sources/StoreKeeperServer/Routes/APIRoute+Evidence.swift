/// The routes that bring evidence in: receipts, signed transactions, Apple's notifications, imports and offer
/// signatures.
extension APIRoute {
    /// `POST /v1/receipts`: verify and store an app receipt.
    public static let postReceipt = APIRoute(
        .postReceipt,
        APIOperation(
            "Post an app receipt (legacy StoreKit 1 evidence)", body: .named("ReceiptPost"),
            answer: APIOperation.json(.named("SubscriberResponse")),
            errors: ["400", "401", "403", "413", "422", "502", "504", "5XX"]))
    /// `POST /v1/transactions`: verify and store a StoreKit 2 signed transaction.
    public static let postTransaction = APIRoute(
        .postTransaction,
        APIOperation(
            "Post a StoreKit 2 signed transaction", body: .named("TransactionPost"),
            answer: APIOperation.json(.named("SubscriberResponse")),
            errors: ["400", "401", "403", "413", "422", "504", "5XX"]))
    /// `POST /v1/notifications/appstore`: App Store Server Notifications V1 and V2.
    public static let postNotification = APIRoute(
        .postNotification,
        APIOperation(
            "App Store Server Notifications V2 (signedPayload) and V1", body: .object,
            answer: APIOperation.json(.named("NotificationReceipt")),
            errors: ["400", "401", "403", "413", "422", "5XX"]))
    /// `POST /v1/imports`: bring in an existing customer by original transaction id or receipt.
    public static let postImport = APIRoute(
        .postImport,
        APIOperation(
            "Bring in an existing customer by original transaction id (App Store Server API) or receipt",
            body: .named("ImportPost"), answer: APIOperation.json(.named("SubscriberResponse")),
            errors: ["400", "401", "403", "409", "413", "422", "5XX"]))
    /// `POST /v1/offers/sign`: a promotional offer signature.
    public static let postOfferSignature = APIRoute(
        .postOfferSignature,
        APIOperation(
            "Sign a promotional offer", body: .named("OfferSignatureRequest"),
            answer: APIOperation.json(.named("OfferSignature")), errors: ["400", "401", "403", "409", "413", "5XX"]))
}
