/// The answer of `DELETE /v1/subscribers/{id}/entitlements/{entitlement}/grants`: the grants it revoked.
public struct GrantRevocationResponse: Codable, Sendable, Hashable {
    /// The customer's grants of the entitlement that were in force, now revoked.
    public var revoked: [Grant]

    /// Makes a response.
    public init(revoked: [Grant]) { self.revoked = revoked }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable { case revoked }
}
