import AppStoreModels
import Foundation
import StoreKeeperAPI
import StoreKeeperStorage
import SubscriptionEngine

/// Where a customer stands when Apple asks about one of their subscriptions: what retention rules' conditions
/// read, and whether a rule's response may be given (Apple shows no promotional offer to a customer in a free
/// trial; our frequency cap answers one at most every ``RetentionService/offerSpacing``).
struct RetentionStanding: Sendable {
    /// The product Apple asks about.
    var productID: String
    /// The subscription's states (`active`, `trial`, `grace`, `price_increase_pending`).
    var states: Set<String>
    /// Days of paid service so far, across the customer's subscriptions.
    var paidDays: Double
    /// When the customer was last answered a promotional offer.
    var lastOffer: Date?
    /// The subscription's storefront.
    var storefront: String?
    /// The customer's locale.
    var locale: String?
    /// The customer's attributes with who set each (read only when a rule has an attributes condition).
    var attributes: HeldAttributes
    /// The instant of the request.
    var now: Date
    /// The customer's subscriber document as the rules read it, when a rule needed it (a state or storefront
    /// condition, the last offer, or a promotional offer).
    var document: StandingDocument?
    /// The document's bytes as read (a promotional offer's webhook event decodes them whole, without reading again).
    var documentBytes: Data?

    /// Reads the standing of `appUserID` for `request`, as far as `rules` need it: the customer's evidence (for
    /// paid months) and their last offer only when a rule reads them — Apple waits on this answer.
    static func read(
        appUserID: String, request: DecodedRealtimeRequestBody, project: ProjectScope, subscribers: SubscriberService,
        store: any RetentionStore, rules: [RetentionRule], now: Date
    ) async throws -> RetentionStanding {
        let needsDocument = rules.contains {
            $0.when.states != nil || $0.when.storefronts != nil
                || $0.when.monthsSinceLastOfferAtLeast != nil || $0.respond.promotionalOffer != nil
        }
        let documentBytes =
            needsDocument
            ? Data(try await subscribers.subscriberDocument(appUserID: appUserID, project: project, personal: true))
            : nil
        let document = try documentBytes.map { try JSONDecoder().decode(StandingDocument.self, from: $0) }
        let subscription = document?.subscriber.subscriptions.first {
            $0.originalTransactionID == request.originalTransactionId
        }
        var states: Set<String> = []
        if let subscription {
            switch subscription.status {
            case "active": states.insert(subscription.offer?.kind == "freeTrial" ? "trial" : "active")
            case "inGracePeriod": states.insert("grace")
            default: break
            }
            if subscription.priceIncreaseStatus == 0 { states.insert("price_increase_pending") }
        }
        var paidDays = 0.0
        if rules.contains(where: { $0.when.paidMonthsAtLeast != nil || $0.when.paidMonthsBelow != nil }) {
            let evidence = try await subscribers.store.subscriber(appUserID, in: project)?.evidence ?? EvidenceSet()
            paidDays = Self.paidDays(evidence.transactions, now: now)
        }
        var lastOffer: Date?
        if let document,
            rules.contains(where: { $0.when.monthsSinceLastOfferAtLeast != nil || $0.respond.promotionalOffer != nil })
        {
            let keys = [project.key(document.subscriber.appUserID)] + document.subscriber.aliases.map(project.key)
            lastOffer = try await store.lastRetentionOffer(appUserKeys: keys)
        }
        let attributes =
            rules.contains { $0.when.attributes != nil }
            ? try await subscribers.heldAttributes(appUserID: appUserID, project: project) : HeldAttributes()
        return RetentionStanding(
            productID: request.productId, states: states, paidDays: paidDays, lastOffer: lastOffer,
            storefront: subscription?.storefront,
            locale: request.userLocale, attributes: attributes, now: now, document: document,
            documentBytes: documentBytes)
    }

    /// Days of paid service in `transactions` up to `now`: every auto-renewable period neither refunded nor a free
    /// trial.
    static func paidDays(_ transactions: some Sequence<Transaction>, now: Date) -> Double {
        transactions.reduce(0) { total, transaction in
            guard let start = transaction.purchaseDate, let end = transaction.expiresAt, transaction.revokedAt == nil,
                transaction.offer?.kind != .freeTrial
            else { return total }
            return total + max(0, min(end, now).timeIntervalSince(start)) / 86_400
        }
    }

    /// Whether every condition of `when` holds.
    func matches(_ when: RetentionConditions) -> Bool {
        if let products = when.productIDs, !products.contains(productID) { return false }
        if let wanted = when.states, states.isDisjoint(with: wanted) { return false }
        if let least = when.paidMonthsAtLeast, paidDays < Double(least) * 30 { return false }
        if let below = when.paidMonthsBelow, paidDays >= Double(below) * 30 { return false }
        if let months = when.monthsSinceLastOfferAtLeast, let lastOffer,
            now.timeIntervalSince(lastOffer) < Double(months) * 30 * 86_400
        {
            return false
        }
        if let storefronts = when.storefronts {
            guard let storefront, storefronts.contains(storefront) else { return false }
        }
        if let locales = when.locales {
            guard let locale, locales.contains(where: { LocaleTag.matches($0, locale) }) else { return false }
        }
        if let wanted = when.attributes, !AttributeCondition.holds(wanted, in: attributes, trust: when.trust) {
            return false
        }
        return true
    }

    /// Whether `respond` may be given: a promotional offer never to a customer in a free trial, and at most once
    /// per ``RetentionService/offerSpacing``.
    func allows(_ respond: RetentionResponse) -> Bool {
        guard respond.promotionalOffer != nil else { return true }
        if states.contains("trial") { return false }
        if let lastOffer, now.timeIntervalSince(lastOffer) < RetentionService.offerSpacing { return false }
        return true
    }
}
