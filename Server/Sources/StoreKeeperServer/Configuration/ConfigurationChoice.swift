/// A setting that is one of a few names (`receiptValidation`, `simulatorClock`…): read from its name, and a name
/// it does not know is refused with the names it may be, never read as a default.
public protocol ConfigurationChoice: RawRepresentable<String>, CaseIterable, Sendable {}

extension ConfigurationChoice {
    /// The choice named `name`, for the setting `field`.
    /// - Throws: ``ConfigurationError`` naming the field, the value and the names it may be.
    public static func named(_ name: String, field: String) throws(ConfigurationError) -> Self {
        guard let choice = Self(rawValue: name) else {
            let names = allCases.map(\.rawValue)
            let listed = names.count > 1 ? names.dropLast().joined(separator: ", ") + " or " + names.last! : names[0]
            throw ConfigurationError("\(field) is \"\(name.prefix(40))\"; it must be \(listed)")
        }
        return choice
    }
}

extension KeyedDecodingContainer {
    /// The choice under `key`, when present.
    /// - Throws: ``ConfigurationError`` for a name the choice does not know; a decoding error for a non-string.
    func decodeChoice<Choice: ConfigurationChoice>(_ type: Choice.Type, forKey key: Key) throws -> Choice? {
        try decodeIfPresent(String.self, forKey: key).map { name throws(ConfigurationError) in
            try Choice.named(name, field: key.stringValue)
        }
    }
}
