/// The body Apple POSTs for an App Store Server Notification V2: `{"signedPayload": "<JWS>"}`.
public struct ResponseBodyV2: Codable, Sendable, Hashable {
    /// The signed notification (a compact JWS whose payload is ``ResponseBodyV2DecodedPayload``).
    public var signedPayload: String

    /// Wraps a signed payload.
    /// - Parameter signedPayload: The compact JWS.
    public init(signedPayload: String) {
        self.signedPayload = signedPayload
    }
}
