import Foundation
import StoreKeeperAPI
import StoreKeeperStorage
import StoreKeeperWire
import SubscriptionEngine

/// The subscribers room's logic, apart from HTTP: a subscriber's document at the server's clock (kept encoded
/// until it can change), intro eligibility, aliases and events, each inside the caller's project.
struct SubscriberService: Sendable {
    let store: any EvidenceStore
    let apps: AppDirectory
    let engine: SubscriptionEngine
    let now: @Sendable () -> Date
    /// Encoded answers, kept until the stored row changes or the clock crosses a date where they can change.
    let documents: SubscriberDocumentCache
    /// Customers' attributes, shown beside the subscriber (`nil`: none are shown).
    var attributes: AttributeCache?

    init(
        store: any EvidenceStore, apps: AppDirectory, engine: SubscriptionEngine,
        answerCacheBudget: Int = CacheBudget.standard.answers, now: @escaping @Sendable () -> Date
    ) {
        self.store = store
        self.apps = apps
        self.engine = engine
        self.now = now
        documents = SubscriberDocumentCache(changes: store.changes, budget: answerCacheBudget)
    }

    /// The subscriber document (`{request_date, request_date_ms, subscriber}`) as JSON: entitlements,
    /// subscriptions with explanations, purchases, aliases, server time. One indexed read; the engine runs only
    /// when the stored row changed or the clock crossed a date where the answer can change.
    /// Only `project`'s subscribers are read: another project's user with the same id is not seen.
    /// - Parameter personal: Whether the personal attributes are shown (``AttributeRules/personal``): for the
    ///   owner, not for a public key.
    func subscriberDocument(appUserID: String, project: ProjectScope, personal: Bool) async throws -> [UInt8] {
        let appUserID = try CustomerID.normalized(appUserID)
        let instant = now()
        let key = project.key(appUserID)
        let attributes = AttributeRules.visible(
            try await attributes?.attributes(key).values ?? [:], personal: personal)
        if let body = documents.fresh(key, at: instant) {
            return SubscriberDocument.response(subscriber: body, attributes: attributes, at: instant)
        }
        let readAt = documents.readMark
        guard let snapshot = try await store.snapshot(appUserID, in: project) else {
            let empty = try SubscriberDocument.encode(
                appUserID: appUserID, aliases: [], firstSeen: nil, state: engine.evaluate(EvidenceSet(), at: instant))
            return SubscriberDocument.response(subscriber: empty, attributes: attributes, at: instant)
        }
        if let body = documents.body(for: snapshot, key: key, readAt: readAt, at: instant) {
            return SubscriberDocument.response(subscriber: body, attributes: attributes, at: instant)
        }
        let evidence = try store.decodeEvidence(snapshot)
        let body = try SubscriberDocument.encode(
            appUserID: snapshot.appUserID, aliases: snapshot.aliases, firstSeen: snapshot.createdAt,
            state: engine.evaluate(evidence, at: instant))
        documents.remember(
            body, for: snapshot, key: key, readAt: readAt, from: instant,
            until: engine.nextChange(evidence, after: instant))
        return SubscriberDocument.response(subscriber: body, attributes: attributes, at: instant)
    }

    /// The attributes of `appUserID` in `project` with who set each, as rules read them (none when the server
    /// shows no attributes).
    func heldAttributes(appUserID: String, project: ProjectScope) async throws -> HeldAttributes {
        try await attributes?.attributes(project.key(try CustomerID.normalized(appUserID))) ?? HeldAttributes()
    }

    /// Intro eligibility for products.
    func eligibility(appUserID: String, bundleID: String, productIDs: [String]) async throws -> [String: String] {
        let appUserID = try CustomerID.normalized(appUserID)
        let record = try await store.subscriber(appUserID, in: try apps.project(bundleID))
        let state = engine.evaluate(record?.evidence ?? EvidenceSet(), at: now())
        var result: [String: String] = [:]
        for product in productIDs {
            result[product] =
                (state.introEligibility[product]
                ?? (engine.configuration.subscriptionGroups[product] == nil ? .unknown : .eligible)).rawValue
        }
        return result
    }

    /// Merges identities: `appUserID` (and its purchases) becomes an alias of `newAppUserID`.
    ///
    /// Who may merge whom is ``MergeAuthority``'s rule, applied by the store inside the merge's transaction to the
    /// customer `appUserID` resolves to: the app (a public key, which ships inside the app, so anyone has it) may
    /// merge a customer without evidence or backend-set attributes, or its own anonymous id; moving a customer's
    /// purchases, grants or the backend's attributes needs the owner's backend.
    /// - Parameter authority: Who asks.
    func alias(appUserID: String, newAppUserID: String, bundleID: String, authority: MergeAuthority) async throws
        -> [UInt8]
    {
        let appUserID = try CustomerID.normalized(appUserID)
        let newAppUserID = try CustomerID.normalized(newAppUserID, field: "new_app_user_id")
        let project = try apps.project(bundleID)
        do {
            try await store.alias(
                appUserID, to: newAppUserID, in: project, bundleID: bundleID, now: now(), authority: authority)
        } catch let refused as MergeRefused {
            let whose = refused.isAlias ? "is an alias of a customer who has" : "has"
            throw ServiceError(
                .forbidden, .secretKeyRequired,
                "app_user_id \(UntrustedText.quoted(refused.appUserID)) \(whose) purchases, grants or attributes "
                    + "your backend set; merging it into another id needs a secret key with the support or admin "
                    + "scope (a public key may merge an id without them, or its own anonymous id, $anonymous:<uuid>)")
        }
        return try await subscriberDocument(
            appUserID: newAppUserID, project: project, personal: authority == .owner)
    }

    /// A subscriber's events, in the caller's project.
    func events(appUserID: String, bundleID: String) async throws -> EventsResponse {
        let appUserID = try CustomerID.normalized(appUserID)
        let events = try await store.events(appUserID, in: try apps.project(bundleID), limit: 1000).map { event in
            SubscriberEvent(
                id: event.id, createdAt: event.createdAt, type: event.type, cause: event.cause.rawValue,
                causeID: event.causeID,
                evidenceID: event.evidenceID, detail: event.detail)
        }
        return EventsResponse(events: events)
    }

}
