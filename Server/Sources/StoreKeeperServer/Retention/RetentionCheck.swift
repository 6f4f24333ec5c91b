import Foundation
import StoreKeeperAPI

/// The one statement of what retention rules may hold. A broken rule is refused with `invalid_retention_rule`,
/// naming the rule, the field and the value; a field the rules do not define is refused by name (a typo must not
/// make a condition vanish and a rule answer everyone).
enum RetentionCheck {
    /// The most rules a project may have.
    static let maximumRules = 50
    /// The subscription states a rule may name.
    static let states: Set<String> = ["active", "trial", "grace", "price_increase_pending"]

    /// `rules` checked whole against the products the server knows (`catalog`; empty: any product).
    static func checked(_ rules: RetentionRules, catalog: Set<String>) throws -> RetentionRules {
        try RuleIdentifiers.check(rules.rules.map(\.identifier), maximum: maximumRules, invalid: invalid)
        for (index, rule) in rules.rules.enumerated() {
            let name = "rules[\(index)]"
            try check(rule.when, "\(name).when", catalog: catalog)
            try check(rule.respond, "\(name).respond", catalog: catalog)
        }
        return rules
    }

    static func check(_ when: RetentionConditions, _ name: String, catalog: Set<String>) throws {
        try TargetingCheck.checkList(when.productIDs, "\(name).product_id") { catalog.isEmpty || catalog.contains($0) }
        try TargetingCheck.checkList(when.states, "\(name).state") { states.contains($0) }
        try TargetingCheck.checkList(when.storefronts, "\(name).storefront") { value in
            value.count == 3 && value.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) }
        }
        try TargetingCheck.checkList(when.locales, "\(name).locale") { LocaleTag.isWellFormed($0) }
        for (field, value) in [
            ("paid_months_at_least", when.paidMonthsAtLeast), ("paid_months_below", when.paidMonthsBelow),
            ("months_since_last_offer_at_least", when.monthsSinceLastOfferAtLeast),
        ] {
            if let value, !(0...1_200).contains(value) { throw invalid("\(name).\(field) is \(value); 0 to 1200") }
        }
        try TargetingCheck.checkAttributes(when.attributes, "\(name).attributes", invalid: invalid)
        try AttributeCondition.check(trust: when.trust, attributes: when.attributes, name, invalid: invalid)
    }

    static func check(_ respond: RetentionResponse, _ name: String, catalog: Set<String>) throws {
        let kinds = [respond.message != nil, respond.alternateProduct != nil, respond.promotionalOffer != nil]
        guard kinds.filter({ $0 }).count == 1 else {
            throw invalid("\(name) must hold exactly one of message, alternate_product and promotional_offer")
        }
        guard let message = respond.messageID, UUID(uuidString: message) != nil else {
            throw invalid(
                "\(name).\(respond.kind).message_id \"\((respond.messageID ?? "").prefix(60))\" is not a UUID (Apple's message identifiers are)"
            )
        }
        if let product = respond.alternateProduct?.productID, !catalog.isEmpty, !catalog.contains(product) {
            throw invalid("\(name).alternate_product.product_id \"\(product.prefix(100))\" is not a configured product")
        }
        if let offer = respond.promotionalOffer {
            guard !offer.offerID.isEmpty, offer.offerID.count <= 100 else {
                throw invalid("\(name).promotional_offer.offer_id must be 1–100 characters")
            }
            if let signature = offer.signature, !["v1", "v2"].contains(signature) {
                throw invalid("\(name).promotional_offer.signature \"\(signature.prefix(20))\": expected v1 or v2")
            }
        }
    }

    static func invalid(_ message: String) -> ServiceError { ServiceError.invalid(.invalidRetentionRule, message) }
}
