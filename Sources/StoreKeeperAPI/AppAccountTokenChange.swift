/// A purchase's app account token, reassigned by Apple at support's request.
public struct AppAccountTokenChange: Codable, Sendable, Hashable {
    /// The purchase.
    public var originalTransactionID: String
    /// The token its transactions carry now (lowercase UUID).
    public var appAccountToken: String
    /// The token they carried before, as StoreKeeper had stored it (`nil`: none).
    public var previousAppAccountToken: String?

    /// Makes an answer.
    public init(originalTransactionID: String, appAccountToken: String, previousAppAccountToken: String?) {
        self.originalTransactionID = originalTransactionID
        self.appAccountToken = appAccountToken
        self.previousAppAccountToken = previousAppAccountToken
    }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case originalTransactionID = "original_transaction_id", appAccountToken = "app_account_token"
        case previousAppAccountToken = "previous_app_account_token"
    }
}

extension AppAccountTokenChange: APIDocumented {
    /// What the object says of itself.
    public static let shape = APIObjectShape(
        description: "A purchase's app account token Apple reassigned at support's request")

    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .originalTransactionID: .required(.text)
        case .appAccountToken: .required(.text)
        case .previousAppAccountToken: .required(.text.nullable)
        }
    }
}
