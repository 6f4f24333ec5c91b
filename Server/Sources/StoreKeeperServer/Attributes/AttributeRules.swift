import StoreKeeperAPI

/// The one statement of what an attribute may be: a reserved `$` name of the list, or a custom name of 1–40
/// characters from `A–Z a–z 0–9 _ . -`; a value of at most 500 bytes of UTF-8 without control characters; at most
/// 50 custom attributes per customer.
enum AttributeRules {
    /// The reserved names (documented; they do not count towards the custom limit).
    static let reserved: Set<String> = ["$email", "$displayName", "$phoneNumber", "$mediaSource", "$campaign"]
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
            throw APIError.badRequest(
                .invalidAttribute, "attributes has \(changes.count) entries; a request changes 1–\(maximumChanges)")
        }
        for (name, value) in changes.sorted(by: { $0.key < $1.key }) {
            if name.hasPrefix("$") {
                guard reserved.contains(name) else {
                    throw APIError.badRequest(
                        .invalidAttribute,
                        "attribute \"\(name.prefix(50))\" is not a reserved name (\(reserved.sorted().joined(separator: ", ")))"
                    )
                }
            } else {
                guard OfferingRules.isName(name, extra: "", maximum: maximumNameLength) else {
                    throw APIError.badRequest(
                        .invalidAttribute,
                        "attribute name \"\(name.prefix(50))\" must be 1–\(maximumNameLength) characters from A–Z a–z 0–9 _ . -"
                    )
                }
            }
            if let value {
                guard value.utf8.count <= maximumValueBytes,
                    !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
                else {
                    throw APIError.badRequest(
                        .invalidAttribute,
                        "attribute \"\(name)\" has a value of \(value.utf8.count) bytes or with control characters; at most \(maximumValueBytes) bytes"
                    )
                }
            }
        }
        return changes
    }
}
