/// `GET /v1/search?q=`: the customers of the caller's project a piece of text names, best match first, at most 20.
public struct SearchResponse: Codable, Sendable, Hashable {
    /// The customers found, each once, best match first.
    public var results: [SearchResult]

    /// Makes a response.
    public init(results: [SearchResult]) { self.results = results }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable { case results }
}

/// One customer a search found, and what the text matched.
public struct SearchResult: Codable, Sendable, Hashable {
    /// The customer's app user id.
    public var appUserID: String
    /// What matched: `app_user_id`, `alias`, `original_transaction_id`, `transaction_id`, `order_id`,
    /// `app_account_token` or `email`.
    public var matched: String

    /// Makes a result.
    public init(appUserID: String, matched: String) {
        self.appUserID = appUserID
        self.matched = matched
    }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable { case appUserID = "app_user_id", matched }
}

extension SearchResponse: APIDocumented {
    /// What the object says of itself.
    public static let shape = APIObjectShape(isClosed: true)

    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .results: .required(.array(of: .type(SearchResult.self)).count(0...20))
        }
    }
}

extension SearchResult: APIDocumented {
    /// What the object says of itself.
    public static let shape = APIObjectShape(isClosed: true)

    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .appUserID: .required(.text)
        case .matched:
            .required(
                .oneOf([
                    "app_user_id", "alias", "original_transaction_id", "transaction_id", "order_id",
                    "app_account_token", "email",
                ]))
        }
    }
}
