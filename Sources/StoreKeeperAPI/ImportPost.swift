/// The body of `POST /v1/imports`: one existing customer to bring in (backfill), by an original transaction id
/// (asked of the App Store Server API) or by an app receipt (verified as `POST /v1/receipts` does).
public struct ImportPost: Codable, Sendable, Hashable {
    /// The customer's id in your app (1–256 bytes).
    public var appUserID: String
    /// Any transaction id of the customer's subscription: exactly one of this and ``receipt``.
    public var originalTransactionID: String?
    /// The base64 app receipt: exactly one of this and ``originalTransactionID``.
    public var receipt: String?

    /// Makes a request.
    public init(appUserID: String, originalTransactionID: String? = nil, receipt: String? = nil) {
        self.appUserID = appUserID
        self.originalTransactionID = originalTransactionID
        self.receipt = receipt
    }

    /// The wire names: the only fields the endpoint accepts.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case appUserID = "app_user_id", originalTransactionID = "original_transaction_id", receipt
    }
}

extension ImportPost: APIDocumented {
    /// What the object says of itself.
    public static let shape = APIObjectShape(isClosed: true)

    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .appUserID: .required(.text.length(1...256))
        case .originalTransactionID: .optional(.text.length(1...64).described("Exactly one of this and receipt"))
        case .receipt:
            .optional(
                .text.length(1...Int.max).described(
                    "Base64 app receipt; exactly one of this and original_transaction_id"))
        }
    }
}
