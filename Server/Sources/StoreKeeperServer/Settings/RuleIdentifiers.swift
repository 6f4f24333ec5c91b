import StoreKeeperAPI

/// The one rule for a list of named rules (targeting, retention): at most so many, each named 1–100 characters
/// from `A–Z a–z 0–9 . _ -`, no name twice. A refusal names the rule by its place (`rules[2].identifier`).
enum RuleIdentifiers {
    /// Checks `identifiers` (the rules' names, in order).
    /// - Parameters:
    ///   - identifiers: The names.
    ///   - maximum: The most rules a project may have.
    ///   - invalid: The feature's refusal for a message.
    static func check(_ identifiers: [String], maximum: Int, invalid: (String) -> ServiceError) throws {
        guard identifiers.count <= maximum else {
            throw invalid("rules has \(identifiers.count) entries; a project has at most \(maximum)")
        }
        var seen: Set<String> = []
        for (index, identifier) in identifiers.enumerated() {
            let name = "rules[\(index)].identifier"
            guard OfferingRules.isName(identifier, extra: "") else {
                throw invalid(
                    "\(name) \"\(identifier.prefix(100))\" must be 1–100 characters from A–Z a–z 0–9 . _ -")
            }
            guard seen.insert(identifier).inserted else { throw invalid("\(name) \"\(identifier)\" is used twice") }
        }
    }
}
