public import AppStoreModels
import StoreKeeperWire

/// Something that verifies App Store signed data (compact JWS) and checks what it says about itself.
///
/// Two verifiers conform: ``AppStoreSignedDataVerifier`` (Apple's chain to a pinned root) and
/// ``XcodeSignedDataVerifier`` (StoreKit testing in Xcode, chosen only by configuration). The typed methods
/// verify first and decode after.
public protocol SignedDataVerifying: Sendable {
    /// The bundle id / environment / app id the payloads must carry.
    var expectations: SignedDataExpectations { get }

    /// Verifies a split token's signature and chain without interpreting its payload.
    /// - Parameter jws: A compact JWS, split (``split(_:)``) but not yet trusted.
    /// - Returns: The verified payload bytes.
    /// - Throws: ``VerificationError``.
    func verify(_ jws: CompactJWS) async throws -> VerifiedSignedData

    /// Splits and decodes a token the way this verifier does (``AppStoreSignedDataVerifier`` remembers headers).
    /// - Parameter token: A compact JWS.
    /// - Returns: The token's parts, not yet verified.
    /// - Throws: ``VerificationError/Code/malformed`` or ``VerificationError/Code/inputTooLarge``.
    func split(_ token: String) throws -> CompactJWS
}

extension SignedDataVerifying {
    /// Splits without a header cache.
    public func split(_ token: String) throws -> CompactJWS { try CompactJWS(token) }

    /// Verifies a token's signature and chain without interpreting its payload.
    /// - Parameter token: A compact JWS.
    /// - Returns: The verified payload bytes.
    /// - Throws: ``VerificationError``.
    public func verify(_ token: String) async throws -> VerifiedSignedData {
        try await verify(try split(token))
    }

    /// Verifies and decodes a signed transaction.
    /// - Parameter token: A `JWSTransaction`.
    /// - Returns: The payload.
    /// - Throws: ``VerificationError``.
    public func verifyTransaction(_ token: String) async throws -> JWSTransactionDecodedPayload {
        try checked(try await verify(token).decode(JWSTransactionDecodedPayload.self))
    }

    /// A decoded transaction, once it meets the expectations.
    func checked(_ payload: JWSTransactionDecodedPayload) throws -> JWSTransactionDecodedPayload {
        try expectations.check(
            bundleID: payload.bundleId, environment: payload.environment, appAppleID: nil, "transaction")
        return payload
    }

    /// Verifies and decodes signed renewal info (which carries no bundle id).
    /// - Parameter token: A `JWSRenewalInfo`.
    /// - Returns: The payload.
    /// - Throws: ``VerificationError``.
    public func verifyRenewalInfo(_ token: String) async throws -> JWSRenewalInfoDecodedPayload {
        try checked(try await verify(token).decode(JWSRenewalInfoDecodedPayload.self))
    }

    /// Decoded renewal info, once its environment meets the expectations (it carries no bundle id).
    func checked(_ payload: JWSRenewalInfoDecodedPayload) throws -> JWSRenewalInfoDecodedPayload {
        try SignedDataExpectations(environment: expectations.environment)
            .check(bundleID: nil, environment: payload.environment, appAppleID: nil, "renewal info")
        return payload
    }

    /// Verifies and decodes a signed app transaction.
    /// - Parameter token: A signed `AppTransaction`.
    /// - Returns: The payload.
    /// - Throws: ``VerificationError``.
    public func verifyAppTransaction(_ token: String) async throws -> AppTransactionDecodedPayload {
        let payload = try await verify(token).decode(AppTransactionDecodedPayload.self)
        try expectations.check(
            bundleID: payload.bundleId, environment: payload.environment ?? payload.receiptType,
            appAppleID: payload.appAppleId, "app transaction")
        return payload
    }

    /// Verifies a V2 notification and decodes the signed transaction and renewal info nested in it.
    ///
    /// The nested tokens are authenticated by the notification's own signature, which covers their every byte
    /// (change one and the notification no longer verifies), so their signatures are not checked a second
    /// time; they must still be well-formed ES256 tokens whose payloads meet the same expectations as the
    /// notification's. (Posted on their own, as `POST /v1/transactions` does, a token is verified in full.)
    /// - Parameter signedPayload: The `signedPayload` of the notification body.
    /// - Returns: The notification with its nested payloads decoded.
    /// - Throws: ``VerificationError``; a nested token that fails fails the whole notification.
    public func verifyNotification(_ signedPayload: String) async throws -> VerifiedNotification {
        try await verifyNotification(try split(signedPayload))
    }

    /// Verifies a Retention Messaging real-time request (the `signedPayload` of a `RealtimeRequestBody`): Apple's
    /// chain, then the environment and app Apple id the app expects. The request names no bundle id.
    /// - Parameter signedPayload: The request's token, split.
    /// - Returns: The decoded request.
    /// - Throws: ``VerificationError``, as for a notification.
    public func verifyRealtimeRequest(_ signedPayload: CompactJWS) async throws -> DecodedRealtimeRequestBody {
        let request = try await verify(signedPayload).decode(DecodedRealtimeRequestBody.self)
        try expectations.check(
            bundleID: expectations.bundleID, environment: request.environment, appAppleID: request.appAppleId,
            "real-time request")
        return request
    }

    /// Verifies a V2 notification already split (as a server routing it by its claimed bundle id has done).
    /// - Parameter signedPayload: The notification's token, split.
    /// - Returns: The notification with its nested payloads decoded.
    /// - Throws: ``VerificationError``, as for the token as text.
    public func verifyNotification(_ signedPayload: CompactJWS) async throws -> VerifiedNotification {
        let verified = try await verify(signedPayload)
        let payload = try verified.decode(ResponseBodyV2DecodedPayload.self)
        if let data = payload.data {
            try expectations.check(
                bundleID: data.bundleId, environment: data.environment, appAppleID: data.appAppleId, "notification data"
            )
        } else if let summary = payload.summary {
            try expectations.check(
                bundleID: summary.bundleId, environment: summary.environment, appAppleID: summary.appAppleId,
                "notification summary")
        } else if let token = payload.externalPurchaseToken {
            try expectations.check(
                bundleID: token.bundleId, environment: nil, appAppleID: token.appAppleId, "external purchase token")
        } else if let app = payload.appData {
            try expectations.check(
                bundleID: app.bundleId, environment: app.environment, appAppleID: app.appAppleId,
                "notification app data")
        }
        var notification = VerifiedNotification(payload: payload)
        if let nested = payload.appData?.signedAppTransactionInfo {
            notification.appTransaction = try enclosed(nested, "signedAppTransactionInfo", in: verified)
                .decode(AppTransactionDecodedPayload.self)
        }
        if let nested = payload.data?.signedTransactionInfo {
            notification.transaction = try checked(
                try enclosed(nested, "signedTransactionInfo", in: verified).decode(JWSTransactionDecodedPayload.self))
        }
        if let nested = payload.data?.signedRenewalInfo {
            notification.renewalInfo = try checked(
                try enclosed(nested, "signedRenewalInfo", in: verified).decode(JWSRenewalInfoDecodedPayload.self))
        }
        return notification
    }

    /// A token nested in a payload whose signature was just verified: its structure and algorithm checked,
    /// its payload authenticated by the enclosing signature.
    func enclosed(_ token: String, _ field: String, in enclosing: VerifiedSignedData) throws -> VerifiedSignedData {
        let jws: CompactJWS
        do { jws = try split(token) } catch let error as VerificationError {
            throw VerificationError(error.code, "\(field): \(error.reason)")
        }
        guard jws.algorithm == "ES256" else {
            throw VerificationError(
                .algorithmNotAllowed,
                "\(field): JWS alg is \(UntrustedText.quoted(jws.algorithm)); only ES256 is accepted")
        }
        return VerifiedSignedData(
            payload: jws.payload, signedDate: try SignedDate.read(jws.payload),
            validationTime: enclosing.validationTime,
            isXcodeSigned: enclosing.isXcodeSigned)
    }
}

/// A verified V2 notification with its nested signed data verified and decoded.
public struct VerifiedNotification: Sendable, Hashable {
    /// The notification payload.
    public var payload: ResponseBodyV2DecodedPayload
    /// The decoded `data.signedTransactionInfo`.
    public var transaction: JWSTransactionDecodedPayload?
    /// The decoded `data.signedRenewalInfo`.
    public var renewalInfo: JWSRenewalInfoDecodedPayload?
    /// The decoded `appData.signedAppTransactionInfo` (`RESCIND_CONSENT`).
    public var appTransaction: AppTransactionDecodedPayload?

    /// Wraps a payload.
    /// - Parameter payload: The notification payload.
    public init(payload: ResponseBodyV2DecodedPayload) {
        self.payload = payload
    }
}
