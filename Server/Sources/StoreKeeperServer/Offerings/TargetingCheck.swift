import Foundation
import StoreKeeperAPI

/// The one statement of what targeting rules may hold. A broken rule is refused with `invalid_targeting`, naming
/// the rule, the field and the value; a field the rules do not define (a typo that would make a condition vanish
/// and a rule match everyone) is refused by name.
enum TargetingCheck {
    /// The most rules a project may have.
    static let maximumRules = 50
    /// The platforms a rule may name.
    static let platforms: Set<String> = ["iOS", "iPadOS", "macOS", "tvOS", "watchOS", "visionOS"]
    /// The entitlement states a rule may name.
    static let entitlementStates: Set<String> = ["never_subscribed", "active", "expired"]
    /// The most values one list condition may hold.
    static let maximumValues = 250

    /// `rules` checked whole against the project's offerings.
    static func checked(_ rules: TargetingRules, offerings: Set<String>) throws -> TargetingRules {
        try RuleIdentifiers.check(rules.rules.map(\.identifier), maximum: maximumRules, invalid: invalid)
        for (index, rule) in rules.rules.enumerated() {
            let name = "rules[\(index)]"
            guard offerings.contains(rule.offeringID) else {
                throw invalid(
                    "\(name).offering_id \"\(rule.offeringID.prefix(100))\" is not an offering of this project")
            }
            try check(rule.when, "\(name).when")
        }
        return rules
    }

    static func check(_ when: TargetingConditions, _ name: String) throws {
        try checkList(when.storefronts, "\(name).storefronts") { value in
            value.count == 3 && value.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) }
        }
        try checkList(when.platforms, "\(name).platforms") { platforms.contains($0) }
        try checkList(when.locales, "\(name).locales") { LocaleTag.isWellFormed($0) }
        if let range = when.appVersion {
            for (field, value) in [("at_least", range.atLeast), ("below", range.below)] {
                if let value, AppVersion(value) == nil {
                    throw invalid(
                        "\(name).app_version.\(field) \"\(value.prefix(40))\" is not a version (dotted numbers: 2.1.0)")
                }
            }
        }
        if let range = when.firstSeenDays {
            for (field, value) in [("at_least", range.atLeast), ("below", range.below)] {
                if let value, value < 0 { throw invalid("\(name).first_seen_days.\(field) is \(value); at least 0") }
            }
        }
        try checkAttributes(when.attributes, "\(name).attributes", invalid: invalid)
        try AttributeCondition.check(trust: when.trust, attributes: when.attributes, name, invalid: invalid)
        if let state = when.entitlementState, !entitlementStates.contains(state) {
            throw invalid(
                "\(name).entitlement_state \"\(state.prefix(40))\": expected \(entitlementStates.sorted().joined(separator: ", "))"
            )
        }
    }

    /// An attributes condition (targeting's, retention's): 1–20 names, each a valid attribute with a valid value.
    static func checkAttributes(
        _ attributes: [String: String]?, _ name: String, invalid: (String) -> ServiceError
    ) throws {
        guard let attributes else { return }
        guard (1...20).contains(attributes.count) else {
            throw invalid("\(name) has \(attributes.count) entries; a condition names 1–20")
        }
        do {
            _ = try AttributeRules.checked(attributes.mapValues { Optional($0) })
        } catch let error as ServiceError {
            throw invalid("\(name): \(error.message)")
        }
    }

    static func checkList(_ values: [String]?, _ name: String, _ valid: (String) -> Bool) throws {
        guard let values else { return }
        guard !values.isEmpty, values.count <= maximumValues else {
            throw invalid("\(name) has \(values.count) values; a condition lists 1–\(maximumValues)")
        }
        if let bad = values.first(where: { !valid($0) }) {
            throw invalid("\(name) holds \"\(bad.prefix(40))\", which is not one")
        }
    }

    static func invalid(_ message: String) -> ServiceError { ServiceError.invalid(.invalidTargeting, message) }
}
