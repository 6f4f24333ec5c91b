import AppStoreVerification
public import Crypto
public import Foundation
import StoreKeeperWire

/// Checks App Store Server API bearer tokens the way Apple does: an ES256 JWT whose header names a known key
/// id (`kid`) and `typ` JWT, whose claims carry the issuer, `aud` "appstoreconnect-v1", the bundle id (`bid`),
/// and `exp` not past and at most an hour ahead, signed by that key. `iat` is optional, as at Apple (Apple's own
/// server library sends none); when present it must not be in the future and `exp` at most an hour after it.
/// Lifetimes are checked against the wall clock a client signs with, never the simulator's (manual) clock.
public struct ServerAPIAuthenticator: Sendable {
    /// Largest accepted clock skew, in seconds.
    public var allowedSkew: TimeInterval = 60

    /// Makes an authenticator.
    public init() {}

    /// Checks a token against the registered apps.
    /// - Parameters:
    ///   - authorization: The `Authorization` header value.
    ///   - apps: The registered apps.
    ///   - now: The wall clock (clients sign with theirs, whatever time the simulated world is at).
    /// - Returns: The app the token is for.
    /// - Throws: ``AppStoreAPIError`` 401 with a reason in the message.
    public func authenticate(_ authorization: String?, apps: [SimulatedApp], now: Date) throws(AppStoreAPIError)
        -> SimulatedApp
    {
        func refuse(_ why: String) -> AppStoreAPIError {
            AppStoreAPIError(httpStatus: 401, errorCode: 4_010_000, errorMessage: "Unauthenticated: \(why)")
        }
        guard let authorization, authorization.hasPrefix("Bearer ") else { throw refuse("missing bearer token") }
        let token = String(authorization.dropFirst("Bearer ".count))
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerBytes = Base64.decode(parts[0]), let claimBytes = Base64.decode(parts[1]),
            let signature = Base64.decode(parts[2]),
            let header = try? JSONSerialization.jsonObject(with: Data(headerBytes)) as? [String: Any],
            let claims = try? JSONSerialization.jsonObject(with: Data(claimBytes)) as? [String: Any]
        else { throw refuse("malformed JWT") }
        guard header["alg"] as? String == "ES256" else { throw refuse("alg must be ES256") }
        if let type = header["typ"] as? String, type != "JWT" { throw refuse("typ must be JWT") }
        guard let keyID = header["kid"] as? String else { throw refuse("missing kid") }
        guard let bundleID = claims["bid"] as? String, let app = apps.first(where: { $0.bundleID == bundleID }) else {
            throw refuse("unknown bid")
        }
        guard keyID == app.apiKeyID, let pem = app.apiPublicKeyPEM,
            let key = try? P256.Signing.PublicKey(pemRepresentation: pem)
        else { throw refuse("unknown key id") }
        guard claims["iss"] as? String == app.issuerID else { throw refuse("wrong iss") }
        guard claims["aud"] as? String == "appstoreconnect-v1" else { throw refuse("aud must be appstoreconnect-v1") }
        guard let exp = (claims["exp"] as? NSNumber)?.doubleValue else { throw refuse("missing exp") }
        let current = now.timeIntervalSince1970
        guard exp > current - allowedSkew else { throw refuse("token expired") }
        if let iat = (claims["iat"] as? NSNumber)?.doubleValue {
            guard iat <= current + allowedSkew else { throw refuse("iat is in the future") }
            guard exp - iat <= 3600 else { throw refuse("exp more than 60 minutes after iat") }
        } else {
            guard exp <= current + 3600 + allowedSkew else { throw refuse("exp more than 60 minutes ahead") }
        }
        guard signature.count == 64, let ecdsa = try? P256.Signing.ECDSASignature(rawRepresentation: signature),
            key.isValidSignature(ecdsa, for: SHA256.hash(data: Array("\(parts[0]).\(parts[1])".utf8)))
        else { throw refuse("bad signature") }
        return app
    }

    /// Makes a token as an App Store Connect client would (for tests and the CLI).
    /// - Parameters:
    ///   - app: The app (its key id, issuer and bundle id).
    ///   - key: The private key matching `app.apiPublicKeyPEM`.
    ///   - issuedAt: `iat` (and the start of the lifetime).
    ///   - lifetime: Seconds until `exp`.
    ///   - includesIssuedAt: Whether `iat` is sent (Apple's server library sends none).
    /// - Returns: The JWT.
    public static func token(
        for app: SimulatedApp, key: P256.Signing.PrivateKey, issuedAt: Date, lifetime: TimeInterval = 1800,
        includesIssuedAt: Bool = true
    )
        throws -> String
    {
        let iat = Int64(issuedAt.timeIntervalSince1970)
        var claims = JSONWriter(capacity: 160)
        claims.object { claims in
            claims.key("iss")
            claims.value(app.issuerID)
            if includesIssuedAt {
                claims.key("iat")
                claims.value(iat)
            }
            claims.key("exp")
            claims.value(iat + Int64(lifetime))
            claims.key("aud")
            claims.value("appstoreconnect-v1")
            claims.key("bid")
            claims.value(app.bundleID)
        }
        return try CompactJWS.make(payload: claims.bytes, header: CompactJWS.Header(keyID: app.apiKeyID, type: "JWT")) {
            Array(try key.signature(for: $0).rawRepresentation)
        }
    }
}
