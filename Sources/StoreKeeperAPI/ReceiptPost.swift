/// The body of `POST /v1/receipts`: an app receipt for a customer.
public struct ReceiptPost: Codable, Sendable, Hashable {
    /// The customer's id in your app (1–256 bytes).
    public var appUserID: String
    /// The base64 app receipt.
    public var receipt: String
    /// Your name for the posting device (recorded with the event; 1–256 bytes).
    public var deviceID: String?

    /// Makes a request.
    public init(appUserID: String, receipt: String, deviceID: String? = nil) {
        self.appUserID = appUserID
        self.receipt = receipt
        self.deviceID = deviceID
    }

    /// The wire names: the only fields the endpoint accepts.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case appUserID = "app_user_id", receipt, deviceID = "device_id"
    }
}

extension ReceiptPost: APIDocumented {
    /// What the object says of itself.
    public static let shape = APIObjectShape(isClosed: true)

    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .appUserID: .required(.text.length(1...256))
        case .receipt: .required(.text.length(1...Int.max))
        case .deviceID:
            .optional(
                .text.length(1...256).described(
                    "The posting device (the app's own identifier for it), recorded with the receipt_posted event."))
        }
    }
}
