/// The body of `POST /v1/subscribers/{app_user_id}/subscriptions/{original_transaction_id}/app-account-token`.
public struct AppAccountTokenPost: Codable, Sendable, Hashable {
    /// The token every transaction of the purchase is to carry: a UUID (the app's id for the account).
    public var appAccountToken: String?

    /// Makes a request.
    public init(appAccountToken: String? = nil) { self.appAccountToken = appAccountToken }

    /// The wire names: the only field the endpoint accepts.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case appAccountToken = "app_account_token"
    }
}

extension AppAccountTokenPost: APIDocumented {
    /// What the object says of itself.
    public static let shape = APIObjectShape(isClosed: true)

    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .appAccountToken: .required(.uuid.described("A UUID"))
        }
    }
}
