import StoreKeeperAPI

/// The one statement of what an attribute may be: a reserved `$` name of the list, or a custom name of 1–40
/// characters from `A–Z a–z 0–9 _ . -`; a value of at most 500 bytes of UTF-8 without control, format (bidi
/// overrides and isolates, zero-width characters) or line-separator characters; at most 50 custom attributes per
/// customer. The personal ones are never answered to a public key.
enum AttributeRules {
    /// The reserved names (documented; they do not count towards the custom limit).
    static let reserved: Set<String> = ["$email", "$displayName", "$phoneNumber", "$mediaSource", "$campaign"]
    /// The reserved names that say who a person is: shown to the owner (secret key, dashboard, webhooks), never to
    /// a public key, which is in every copy of the app and names no customer.
    static let personal: Set<String> = ["$email", "$displayName", "$phoneNumber"]

    /// `attributes` as a caller may see them: whole with `personal` (a secret key), else without the personal
    /// ones.
    static func visible(_ attributes: [String: String], personal: Bool) -> [String: String] {
        personal ? attributes : attributes.filter { !Self.personal.contains($0.key) }
    }

    /// Whether a value holds a scalar that hides or reorders text: a control, a format character (U+200B–U+200F,
    /// U+202A–U+202E, U+2060–U+2069, U+FEFF and the rest of category Cf) or a line or paragraph separator.
    static func hasHiddenScalars(_ value: String) -> Bool {
        value.unicodeScalars.contains { scalar in
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator: true
            default: false
            }
        }
    }
    /// The most custom attributes a customer holds.
    static let maximumCustom = 50
    /// The longest value, in bytes of UTF-8.
    static let maximumValueBytes = 500
    /// The longest custom name.
    static let maximumNameLength = 40
    /// The most attributes one request changes.
    static let maximumChanges = 100

    /// `changes` checked, name by name.
    static func checked(_ changes: [String: String?]) throws -> [String: String?] {
        guard !changes.isEmpty, changes.count <= maximumChanges else {
            throw ServiceError.invalid(
                .invalidAttribute, "attributes has \(changes.count) entries; a request changes 1–\(maximumChanges)")
        }
        for (name, value) in changes.sorted(by: { $0.key < $1.key }) {
            if name.hasPrefix("$") {
                guard reserved.contains(name) else {
                    throw ServiceError.invalid(
                        .invalidAttribute,
                        "attribute \"\(name.prefix(50))\" is not a reserved name (\(reserved.sorted().joined(separator: ", ")))"
                    )
                }
            } else {
                guard OfferingRules.isName(name, extra: "", maximum: maximumNameLength) else {
                    throw ServiceError.invalid(
                        .invalidAttribute,
                        "attribute name \"\(name.prefix(50))\" must be 1–\(maximumNameLength) characters from A–Z a–z 0–9 _ . -"
                    )
                }
            }
            if let value {
                guard value.utf8.count <= maximumValueBytes, !hasHiddenScalars(value) else {
                    throw ServiceError.invalid(
                        .invalidAttribute,
                        "attribute \"\(name)\" has a value of \(value.utf8.count) bytes or with control, format or "
                            + "bidirectional characters; at most \(maximumValueBytes) bytes of visible text")
                }
            }
        }
        return changes
    }
}
