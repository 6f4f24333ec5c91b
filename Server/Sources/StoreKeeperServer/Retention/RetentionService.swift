import AppStoreModels
import AppStoreVerification
import Foundation
import StoreKeeperAPI
import StoreKeeperStorage
import StoreKeeperWire
import SubscriptionEngine
import SubscriptionMetrics

/// Retention Messaging apart from HTTP: the owner keeps a project's rules (secret key); Apple's real-time request
/// (signed by Apple, no key) is verified, its customer found in the app's project, and answered by the first rule
/// that matches and may answer — or, when none can, refused so Apple shows the product's default message. Every
/// answered request is recorded on the customer.
struct RetentionService: Sendable {
    /// The setting kind the rules are stored under (one document per project).
    static let rulesKind = "retention_rules"
    /// Our frequency cap: a customer is answered a promotional offer at most once in this long.
    static let offerSpacing: TimeInterval = 30 * 86_400

    let store: any RetentionStore
    /// Who owns the subscription Apple asks about.
    let evidence: any EvidenceStore
    /// Where the rules are kept (one project setting).
    let settings: any SettingStore
    let apps: AppDirectory
    let catalog: Set<String>
    let subscribers: SubscriberService
    let signer: OfferSigner
    let books: ProjectSettingsCache<RetentionRules>
    /// Writes the exchanges, many to a commit.
    let recorder: RetentionRecorder
    /// Answers each of Apple's requests once, and only while fresh.
    let replays = RetentionReplayGuard()
    /// Asks Apple which messages the project's apps hold, when rules are saved.
    var messages = RetentionMessageCheck(client: nil)
    let now: @Sendable () -> Date

    /// Retention over `store`, its rules checked against `catalog` (empty: any product).
    init(
        store: any RetentionStore, evidence: any EvidenceStore, settings: any SettingStore, apps: AppDirectory,
        catalog: Set<String>,
        subscribers: SubscriberService, signer: OfferSigner, now: @escaping @Sendable () -> Date
    ) {
        self.store = store
        self.evidence = evidence
        self.settings = settings
        self.apps = apps
        self.catalog = catalog
        self.subscribers = subscribers
        self.signer = signer
        self.now = now
        recorder = RetentionRecorder(store: store, now: now)
        books = ProjectSettingsCache(store: settings) { settings in
            guard let body = settings.first(where: { $0.kind == Self.rulesKind })?.body else {
                return RetentionRules(rules: [])
            }
            return try APICoding.decoder().decode(RetentionRules.self, from: Data(body.utf8))
        }
    }

    /// `GET /v1/retention/rules`.
    func rules(bundleID: String) async throws -> RetentionRules {
        try await books.value(projectID: try apps.project(bundleID).id)
    }

    /// `PUT /v1/retention/rules`: the rules, checked, replace the old ones.
    /// - Parameter askApple: Whether to refuse rules naming messages Apple does not hold (``RetentionMessageCheck``);
    ///   the configuration file's rules, applied at start, are not held to what Apple answers then.
    func replaceRules(_ rules: RetentionRules, bundleID: String, askApple: Bool = true) async throws -> RetentionRules {
        let project = try apps.project(bundleID)
        let rules = try RetentionCheck.checked(rules, catalog: catalog)
        if askApple, !rules.rules.isEmpty,
            let states = await messages.states(apps.bundleIDs(in: project).compactMap { apps[$0] })
        {
            try RetentionMessageCheck.check(rules, states: states)
        }
        let body = String(decoding: try APICoding.encoder().encode(rules), as: UTF8.self)
        _ = try await settings.saveProjectSetting(
            ProjectSetting(projectID: project.id, kind: Self.rulesKind, name: "", body: body, updatedAt: now()),
            mode: .upsert)
        return rules
    }

    /// `POST /v1/retention/appstore`: Apple's real-time request answered with a `RealtimeResponseBody`.
    /// - Throws: ``ServiceError`` when the request is not Apple's for a configured app; `no_retention_message`
    ///   (404) when no rule answers the customer (Apple then shows the default message).
    func answer(_ body: Data) async throws -> RealtimeResponseBody {
        guard let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any],
            let signedPayload = object["signedPayload"] as? String
        else { throw ServiceError.invalid(.malformed, "the body must be a RealtimeRequestBody: {\"signedPayload\"}") }
        let jws: AppStoreVerification.CompactJWS
        do { jws = try AppStoreVerification.CompactJWS(signedPayload) } catch {
            throw ServiceError.invalid(.malformed, "signedPayload is not a compact JWS")
        }
        let request: DecodedRealtimeRequestBody
        let app: AppRuntime
        do {
            let claimed = Self.claimedAppAppleID(jws.payload)
            guard let routed = route(claimed: claimed) else {
                // Apple's signature is checked before an app is named missing: an unsigned request learns nothing.
                if let any = apps.byBundleID.values.first { _ = try await any.signedData.verify(jws) }
                throw ServiceError(
                    .unknownApp, .unknownApp,
                    "no configured app has appAppleId \(claimed.map(String.init) ?? "absent"); "
                        + "set appAppleID on the app")
            }
            app = routed
            request = try await app.signedData.verifyRealtimeRequest(jws)
        } catch let error as VerificationError {
            ServerMetrics.verificationFailure(code: error.code.rawValue)
            throw ServiceError.unverifiable(APIErrorCode(error.code), "signedPayload: \(error.reason)")
        }
        let instant = now()
        do {
            try replays.admit(request.requestIdentifier, signedDate: request.signedDate, now: instant)
        } catch .stale {
            throw ServiceError(
                .notFound, .noRetentionMessage,
                "the request was signed more than \(Int(RetentionReplayGuard.window)) s from the server's clock")
        } catch .replayed {
            throw ServiceError(.notFound, .noRetentionMessage, "the request was answered before; each is answered once")
        }
        let project = app.project
        let bundleIDs = apps.bundleIDs(in: project)
        guard
            let key = try await evidence.owner(
                originalTransactionKey: project.key(request.originalTransactionId), bundleIDs: bundleIDs)
        else {
            throw ServiceError(
                .notFound, .noRetentionMessage,
                "no customer of this project owns original transaction \(request.originalTransactionId.prefix(40))")
        }
        let appUserID = String(key.dropFirst(project.id.count + 1))
        let rules = try await books.value(projectID: project.id).rules
        let standing = try await RetentionStanding.read(
            appUserID: appUserID, request: request, project: project, subscribers: subscribers, store: store,
            rules: rules, now: instant)
        var chosen: (RetentionRule, RealtimeResponseBody)?
        for rule in rules where standing.matches(rule.when) && standing.allows(rule.respond) {
            chosen = (rule, try await response(rule.respond, request: request, bundleID: app.configuration.bundleID))
            break
        }
        var detail: [String: EventValue] = ["kind": .string(chosen?.0.respond.kind ?? "default")]
        if let (rule, _) = chosen {
            detail["rule"] = .string(rule.identifier)
            if let message = rule.respond.messageID { detail["message_id"] = .string(message) }
            if let product = rule.respond.alternateProduct?.productID { detail["product_id"] = .string(product) }
            if let offer = rule.respond.promotionalOffer?.offerID { detail["offer_id"] = .string(offer) }
        } else {
            detail["reason"] = .string(rules.isEmpty ? "no rules" : "no rule matched")
        }
        var asked: [String: EventValue] = ["product_id": .string(request.productId)]
        if let locale = request.userLocale { asked["locale"] = .string(locale) }
        let answer = RetentionAnswer(
            at: instant, originalTransactionID: request.originalTransactionId, productID: request.productId,
            rule: chosen?.0.identifier, kind: chosen?.0.respond.kind ?? "default",
            environment: request.environment?.rawValue ?? "Production")
        var exchange = RetentionExchange(
            appUserKey: key, requestID: request.requestIdentifier, request: asked, response: detail, at: instant,
            project: project.id, answer: answer)
        if let (rule, _) = chosen, let offer = rule.respond.promotionalOffer {
            // The webhook event carries the whole document: decoded only for an offer answered, from the bytes the
            // standing read (a promotional offer always reads them).
            var bytes = standing.documentBytes
            if bytes == nil {
                bytes = Data(
                    try await subscribers.subscriberDocument(appUserID: appUserID, project: project, personal: true))
            }
            let document = try APICoding.decoder().decode(SubscriberResponse.self, from: bytes ?? Data())
            exchange.announcement = try Self.offerShown(
                offer, document: document, request: request, bundleID: app.configuration.bundleID, at: instant)
        }
        do {
            try await recorder.record(exchange)
        } catch is RetentionRecorder.Replayed {
            // Admitted before by another replica (the database remembers for every replica): nothing recorded.
            throw ServiceError(.notFound, .noRetentionMessage, "the request was answered before; each is answered once")
        }
        guard let (_, answer) = chosen else {
            throw ServiceError(.notFound, .noRetentionMessage, "no retention rule answers this customer")
        }
        return answer
    }

    /// The `retention_offer_shown` webhook event: the customer as the answer saw them, the offer in the subscriber
    /// document's place of the product, caused by Apple's request.
    static func offerShown(
        _ offer: RetentionResponse.PromotionalOffer, document: SubscriberResponse, request: DecodedRealtimeRequestBody,
        bundleID: String, at instant: Date
    ) throws -> OutboxEvent {
        let subscriber = document.subscriber
        let subscription = subscriber.subscriptions.first { $0.originalTransactionID == request.originalTransactionId }
        let event = WebhookEvent(
            id: UUID().uuidString.lowercased(), type: ChangeKind.retentionOfferShown.rawValue, createdAt: instant,
            environment: request.environment?.rawValue, app: bundleID, appUserID: subscriber.appUserID,
            aliases: subscriber.aliases, originalTransactionID: request.originalTransactionId,
            transactionID: subscription?.latestTransactionID, productID: request.productId,
            entitlements: subscriber.entitlements.filter { $0.productID == request.productId }.map(\.identifier),
            periodType: nil, purchasedAt: nil, expiresAt: subscription?.expiresAt, price: subscription?.price,
            currency: subscription?.currency,
            storeTimestamp: request.signedDate.map {
                Date(timeIntervalSince1970: Double($0) / 1000)
            }, cause: "notification", subscriber: subscriber, attributes: document.attributes ?? [:])
        return OutboxEvent(
            id: event.id, type: event.type,
            body: String(decoding: try WebhookAnnouncer.encoder.encode(event), as: UTF8.self))
    }

    /// The app a request is for: the configured app with its Apple id, else the only app configured (a request
    /// names no bundle id). Routing reads the payload before it is verified; the app's verifier then checks it.
    /// `nil` when no app is configured for the claimed id.
    func route(claimed appAppleID: Int64?) -> AppRuntime? {
        let all = apps.byBundleID.values
        if let appAppleID, let app = all.first(where: { $0.configuration.appAppleID == appAppleID }) { return app }
        if all.count == 1, let only = all.first { return only }
        return nil
    }

    /// The `appAppleId` a request's payload claims, read before verification.
    static func claimedAppAppleID(_ payload: [UInt8]) -> Int64? {
        let object = (try? JSONSerialization.jsonObject(with: Data(payload))) as? [String: Any]
        return (object?["appAppleId"] as? NSNumber)?.int64Value
    }

    /// Apple's answer for a rule's response; a promotional offer is signed now, for the subscription's product.
    func response(_ respond: RetentionResponse, request: DecodedRealtimeRequestBody, bundleID: String) async throws
        -> RealtimeResponseBody
    {
        if let message = respond.message {
            return RealtimeResponseBody(message: .init(messageIdentifier: message.messageID))
        }
        if let alternate = respond.alternateProduct {
            return RealtimeResponseBody(
                alternateProduct: .init(messageIdentifier: alternate.messageID, productId: alternate.productID))
        }
        guard let offer = respond.promotionalOffer else { return RealtimeResponseBody() }
        let signature = try await signer.sign(
            bundleID: bundleID, productID: request.productId, offerID: offer.offerID, appAccountToken: nil)
        if offer.signature != "v1", let jws = signature.compactJWS {
            return RealtimeResponseBody(
                promotionalOffer: .init(
                    messageIdentifier: offer.messageID, promotionalOfferSignatureV2: jws,
                    promotionalOfferSignatureV1: nil))
        }
        return RealtimeResponseBody(
            promotionalOffer: .init(
                messageIdentifier: offer.messageID, promotionalOfferSignatureV2: nil,
                promotionalOfferSignatureV1: .init(
                    encodedSignature: signature.signature, productId: request.productId, nonce: signature.nonce,
                    timestamp: signature.timestamp, keyId: signature.keyID, offerIdentifier: offer.offerID)))
    }
}
