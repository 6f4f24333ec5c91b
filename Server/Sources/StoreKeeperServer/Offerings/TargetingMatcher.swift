import Foundation
import StoreKeeperAPI
import StoreKeeperStorage

/// Decides which targeting rule, if any, chooses a customer's offering: the first whose every condition holds.
/// The customer's document is read once, and only when a condition needs it.
struct TargetingMatcher {
    let context: CustomerContext
    private var read: SubscriberResponse?
    private var held: HeldAttributes?

    init(_ context: CustomerContext) { self.context = context }

    /// The first of `rules` the customer matches.
    mutating func first(of rules: [TargetingRule]) async throws -> TargetingRule? {
        for rule in rules where try await matches(rule.when) { return rule }
        return nil
    }

    mutating func subscriber() async throws -> SubscriberResponse {
        if let read { return read }
        let subscriber = try await context.subscriber()
        read = subscriber
        return subscriber
    }

    /// Whether every condition of `when` holds.
    mutating func matches(_ when: TargetingConditions) async throws -> Bool {
        if let platforms = when.platforms, !platforms.contains(where: { $0 == context.platform }) { return false }
        if let locales = when.locales {
            guard let locale = context.locale, locales.contains(where: { LocaleTag.matches($0, locale) }) else {
                return false
            }
        }
        if let range = when.appVersion {
            guard let version = context.appVersion else { return false }
            if let low = range.atLeast.flatMap(AppVersion.init), version < low { return false }
            if let high = range.below.flatMap(AppVersion.init), !(version < high) { return false }
        }
        if let storefronts = when.storefronts {
            var storefront = context.storefront
            if storefront == nil { storefront = CustomerContext.latestStorefront(try await subscriber().subscriber) }
            guard let storefront, storefronts.contains(storefront) else { return false }
        }
        if let range = when.firstSeenDays {
            let days = CustomerContext.firstSeenDays(try await subscriber().subscriber, now: context.now)
            if let low = range.atLeast, days < low { return false }
            if let high = range.below, days >= high { return false }
        }
        if let state = when.entitlementState,
            CustomerContext.entitlementState(try await subscriber().subscriber) != state
        {
            return false
        }
        if let wanted = when.attributes {
            let held: HeldAttributes
            if let known = self.held { held = known } else { held = try await context.attributes() }
            self.held = held
            if !AttributeCondition.holds(wanted, in: held, trust: when.trust) { return false }
        }
        return true
    }
}
