import StoreKeeperAPI

extension StoreKeeper {
    /// Sets (a string) or removes (`nil`) attributes of the customer on the server: reserved names (`$email`,
    /// `$displayName`, `$phoneNumber`, `$mediaSource`, `$campaign`) or custom ones (at most 50). Targeting rules and
    /// your backend see them; they are personal data (removed with the customer's attributes on your server).
    /// - Returns: The customer's attributes after the change, without `$email`, `$displayName` and `$phoneNumber`:
    ///   the server never answers those to an app's public key.
    /// - Throws: ``StoreKeeperError`` `server` for a name or value the server refuses (`invalid_attribute`,
    ///   `too_many_attributes`), `offline` when it cannot be reached.
    @discardableResult
    public func setAttributes(_ attributes: [String: String?]) async throws -> [String: String] {
        let current = try await started()
        return try await server.call(
            "POST", APIPath.attributes(current.appUserID), body: AttributesPost(attributes: attributes),
            as: AttributesResponse.self
        ).attributes
    }
}
