/// The answer of `DELETE /v1/subscribers/{id}/entitlements/{entitlement}/grants`: the grants it revoked.
public struct GrantRevocationResponse: Codable, Sendable, Hashable {
    /// The customer's grants of the entitlement that were in force, now revoked.
    public var revoked: [Grant]

    /// Makes a response.
    public init(revoked: [Grant]) { self.revoked = revoked }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable { case revoked }
}

extension GrantRevocationResponse: APIDocumented {
    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .revoked: .required(.array(of: .type(Grant.self)))
        }
    }
}
