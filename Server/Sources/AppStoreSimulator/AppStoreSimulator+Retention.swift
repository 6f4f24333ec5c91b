public import AppStoreModels
public import Foundation
import StoreKeeperWire

/// Apple's Retention Messaging: the real-time URL and the messages an app configures (with Apple's errors), the
/// signed request sent when a customer opens their subscription's page, and Apple's judgement of the answer.
extension AppStoreSimulator {
    /// Apple's limit on a real-time URL's length.
    static let maximumRealtimeURL = 256

    /// Configure Realtime URL.
    /// - Throws: ``AppStoreAPIError`` 400 `BadRequestRealtimeUrlError` (4000215) for a URL that is not http(s) or
    ///   longer than 256 characters.
    public func configureRealtimeURL(bundleID: String, url: String) throws {
        guard var app = apps[bundleID] else { throw AppStoreAPIError.transactionNotFound }
        guard url.count <= Self.maximumRealtimeURL, let parsed = URL(string: url),
            ["http", "https"].contains(parsed.scheme ?? ""), parsed.host != nil
        else {
            throw AppStoreAPIError(httpStatus: 400, errorCode: 4_000_215, errorMessage: "Invalid realtime URL.")
        }
        app.realtimeURL = url
        apps[bundleID] = app
        revision &+= 1
    }

    /// Get Realtime URL.
    /// - Throws: ``AppStoreAPIError`` 404 `RealtimeUrlNotFoundError` (4040021) when none is configured.
    public func realtimeURL(bundleID: String) throws -> String {
        guard let url = apps[bundleID]?.realtimeURL else {
            throw AppStoreAPIError(httpStatus: 404, errorCode: 4_040_021, errorMessage: "Realtime URL not found.")
        }
        return url
    }

    /// Delete Realtime URL.
    public func deleteRealtimeURL(bundleID: String) {
        apps[bundleID]?.realtimeURL = nil
        revision &+= 1
    }

    /// Upload Message: a new message, pending Apple's review.
    /// - Throws: ``AppStoreAPIError`` 400 (an identifier that is not a UUID, an empty text, Apple's header, body,
    ///   bullet point and alt text limits), 404 `ImageNotFoundError` (4040014) for an image never uploaded, or 409
    ///   `MessageAlreadyExistsError` (4090001).
    public func uploadRetentionMessage(bundleID: String, messageID: String, _ upload: UploadMessageRequestBody) throws {
        guard var app = apps[bundleID] else { throw AppStoreAPIError.transactionNotFound }
        guard UUID(uuidString: messageID) != nil else {
            throw AppStoreAPIError(
                httpStatus: 400, errorCode: 4_000_000,
                errorMessage: "Invalid request: the message identifier is a UUID.")
        }
        try checkRetentionMessage(upload, app: app)
        var messages = app.retentionMessages ?? [:]
        guard messages[messageID.lowercased()] == nil else {
            throw AppStoreAPIError(httpStatus: 409, errorCode: 4_090_001, errorMessage: "Message already exists.")
        }
        messages[messageID.lowercased()] = SimulatedRetentionMessage(upload)
        app.retentionMessages = messages
        apps[bundleID] = app
        revision &+= 1
    }

    /// Get Message List: every message's identifier and state.
    public func retentionMessages(bundleID: String) -> [(id: String, state: String)] {
        (apps[bundleID]?.retentionMessages ?? [:]).map { ($0.key, $0.value.state) }.sorted { $0.id < $1.id }
    }

    /// Delete Message.
    /// - Throws: ``AppStoreAPIError`` 404 `MessageNotFoundError` (4040015).
    public func deleteRetentionMessage(bundleID: String, messageID: String) throws {
        guard apps[bundleID]?.retentionMessages?.removeValue(forKey: messageID.lowercased()) != nil else {
            throw AppStoreAPIError(httpStatus: 404, errorCode: 4_040_015, errorMessage: "Message not found.")
        }
        revision &+= 1
    }

    /// Configure Default Message: the message shown for `productID` in `locale` when the real-time answer fails.
    /// - Throws: ``AppStoreAPIError`` 404 `MessageNotFoundError` (4040015), 403 `MessageNotApprovedError`
    ///   (4030017) or `ImageNotApprovedError` (4030018): only an approved message whose images are approved can be
    ///   a default.
    public func configureDefaultRetentionMessage(bundleID: String, productID: String, locale: String, messageID: String)
        throws
    {
        guard let message = apps[bundleID]?.retentionMessages?[messageID.lowercased()] else {
            throw AppStoreAPIError(httpStatus: 404, errorCode: 4_040_015, errorMessage: "Message not found.")
        }
        guard message.state == "APPROVED" else {
            throw AppStoreAPIError(httpStatus: 403, errorCode: 4_030_017, errorMessage: "Message not approved.")
        }
        guard message.imageIDs.allSatisfy({ apps[bundleID]?.retentionImages?[$0]?.state == "APPROVED" }) else {
            throw AppStoreAPIError(httpStatus: 403, errorCode: 4_030_018, errorMessage: "Image not approved.")
        }
        var defaults = apps[bundleID]?.defaultRetentionMessages ?? [:]
        defaults[productID + "\n" + locale] = messageID.lowercased()
        apps[bundleID]?.defaultRetentionMessages = defaults
        revision &+= 1
    }

    /// Get Default Message.
    /// - Throws: ``AppStoreAPIError`` 404 `DefaultMessageNotFoundError` (4040020).
    public func defaultRetentionMessage(bundleID: String, productID: String, locale: String) throws -> String {
        guard let id = apps[bundleID]?.defaultRetentionMessages?[productID + "\n" + locale] else {
            throw AppStoreAPIError(httpStatus: 404, errorCode: 4_040_020, errorMessage: "Default message not found.")
        }
        return id
    }

    /// Delete Default Message.
    public func deleteDefaultRetentionMessage(bundleID: String, productID: String, locale: String) {
        apps[bundleID]?.defaultRetentionMessages?[productID + "\n" + locale] = nil
        revision &+= 1
    }

    /// What Apple shows when the real-time answer fails: the default message for the product and locale when one
    /// is configured (`default`), else nothing (`none`).
    public func fallback(bundleID: String, productID: String, locale: String) -> String {
        apps[bundleID]?.defaultRetentionMessages?[productID + "\n" + locale] == nil ? "none" : "default"
    }

    /// Apple's review decides a message: `APPROVED` or `REJECTED` (the simulator's control verb).
    /// - Throws: ``SimulatorError`` `not_found` for a message the app did not upload.
    public func reviewRetentionMessage(bundleID: String, messageID: String, approved: Bool) throws {
        guard apps[bundleID]?.retentionMessages?[messageID.lowercased()] != nil else {
            throw SimulatorError.notFound("message", messageID)
        }
        apps[bundleID]?.retentionMessages?[messageID.lowercased()]?.state = approved ? "APPROVED" : "REJECTED"
        revision &+= 1
    }

    /// The signed request Apple sends when `customerID` opens the page of their latest auto-renewable
    /// subscription of the app.
    /// - Returns: The decoded payload's JSON, its product, the `RealtimeRequestBody` JSON, and where it goes
    ///   (`nil`: no URL set).
    /// - Throws: ``SimulatorError`` when the app is unknown or the customer has no subscription.
    public func retentionRequest(bundleID: String, customerID: String, locale: String?) throws -> (
        payload: Data, productID: String, body: Data, url: String?
    ) {
        advance()
        guard let app = apps[bundleID] else { throw SimulatorError.notFound("app", bundleID) }
        let ids = transactionIDsByCustomer[bundleID + "\n" + customerID] ?? []
        guard
            let latest = ids.reversed().compactMap({ transactions[$0] }).first(where: { $0.expiresDate != nil })
        else {
            throw SimulatorError(
                .noSubscription, "customer \(customerID) has no subscription of \(bundleID) to view", kind: .conflict)
        }
        let (payload, productID) = realtimePayload(app, latest, locale: locale ?? "en-US")
        let body = Self.json(["signedPayload": sign(payload)])
        return (Self.json(payload), productID, body, app.realtimeURL)
    }

    /// Apple's `DecodedRealtimeRequestBody` about the subscription of `transaction`, and the product asked about
    /// (the subscription's current one).
    func realtimePayload(_ app: SimulatedApp, _ transaction: SimulatedTransaction, locale: String) -> (
        [String: Any], String
    ) {
        let productID = subscriptions[transaction.originalTransactionID]?.productID ?? transaction.productID
        let payload: [String: Any] = [
            "originalTransactionId": transaction.originalTransactionID, "appAppleId": app.appAppleID,
            "productId": productID, "userLocale": locale, "requestIdentifier": random.uuid(),
            "signedDate": Self.milliseconds(clock.now()), "environment": configuration.environment,
        ]
        return (payload, productID)
    }

    /// What Apple shows for an answer to a request about `productID`: `realtime` when the answer is valid, else `default` with why
    /// Apple rejects it (an HTTP failure, not one kind of message, a message not approved, an alternate product
    /// outside the subscription's group, a promotional offer whose signature does not hold).
    public func judgeRetentionAnswer(bundleID: String, productID: String, status: Int, body: Data) -> (
        shown: String, problem: String?
    ) {
        guard status == 200 else { return ("default", "the endpoint answered HTTP \(status)") }
        guard let answer = try? JSONDecoder().decode(RealtimeResponseBody.self, from: body), answer.kinds == 1,
            let messageID = answer.messageIdentifier
        else { return ("default", "the answer is not a RealtimeResponseBody with exactly one retention message") }
        guard let app = apps[bundleID] else { return ("none", "the app is not configured") }
        guard let message = app.retentionMessages?[messageID.lowercased()] else {
            return ("default", "message \(messageID) was never uploaded")
        }
        guard message.state == "APPROVED" else { return ("default", "message \(messageID) is \(message.state)") }
        if let image = message.imageIDs.first(where: { app.retentionImages?[$0]?.state != "APPROVED" }) {
            return ("default", "image \(image) of message \(messageID) is not approved")
        }
        if answer.message == nil, !message.imageIDs.isEmpty {
            return ("default", "message \(messageID) has images: only a text-based message may show one")
        }
        if let alternate = answer.alternateProduct {
            let group = app.product(productID)?.subscriptionGroupID
            guard alternate.productId != productID, let other = app.product(alternate.productId),
                other.subscriptionGroupID != nil, other.subscriptionGroupID == group
            else {
                return ("default", "alternate product \(alternate.productId) is not another product of the group")
            }
        }
        if let offer = answer.promotionalOffer {
            let proof: OfferProof
            var offerID: String
            if let jws = offer.promotionalOfferSignatureV2 {
                proof = .jws(jws)
                offerID = Self.claimedOfferIdentifier(jws) ?? ""
            } else if let v1 = offer.promotionalOfferSignatureV1 {
                proof = .signature(
                    keyID: v1.keyId, nonce: v1.nonce, timestamp: v1.timestamp, signature: v1.encodedSignature)
                offerID = v1.offerIdentifier
            } else {
                return ("default", "the promotional offer carries no signature")
            }
            guard app.product(productID)?.promotionalOffers[offerID] != nil else {
                return ("default", "\(productID) has no promotional offer \"\(offerID)\"")
            }
            do {
                try acceptOfferProof(proof, app: app, productID: productID, offerID: offerID, appAccountToken: nil)
            } catch {
                return ("default", "the promotional offer signature: \(error)")
            }
        }
        return ("realtime", nil)
    }

    /// Initiate Performance Test's requests: `count` signed real-time requests about the subscription of
    /// `originalTransactionID`, and where they go.
    /// - Throws: ``AppStoreAPIError`` 404 (4040010) for a transaction not of the app, 404 (4040021) without a
    ///   real-time URL.
    public func performanceTestRequests(bundleID: String, originalTransactionID: String, count: Int)
        throws(AppStoreAPIError) -> (url: String, bodies: [Data])
    {
        let transaction = try customerTransaction(originalTransactionID, bundleID: bundleID)
        guard let app = apps[bundleID], let url = app.realtimeURL else {
            throw AppStoreAPIError(httpStatus: 404, errorCode: 4_040_021, errorMessage: "Realtime URL not found.")
        }
        let bodies = (0..<count).map { _ in
            Self.json(["signedPayload": sign(realtimePayload(app, transaction, locale: "en-US").0)])
        }
        return (url, bodies)
    }

    /// Records a performance test's result (Apple's `PerformanceTestResultResponse` JSON).
    public func recordPerformanceTest(_ requestID: String, result: Data) { performanceTests[requestID] = result }

    /// Get Performance Test Results.
    /// - Throws: ``AppStoreAPIError`` 404 `PerformanceTestRunNotFoundError` (4040018).
    public func performanceTestResult(_ requestID: String) throws(AppStoreAPIError) -> Data {
        guard let result = performanceTests[requestID] else {
            throw AppStoreAPIError(httpStatus: 404, errorCode: 4_040_018, errorMessage: "Performance test not found.")
        }
        return result
    }

    /// The `offerIdentifier` a promotional offer JWS claims (checked with its signature afterwards).
    static func claimedOfferIdentifier(_ jws: String) -> String? {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let bytes = Base64.decode(parts[1]),
            let claims = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any]
        else { return nil }
        return claims["offerIdentifier"] as? String
    }
}
