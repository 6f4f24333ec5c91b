/// `POST /v1/subscribers/{id}/attributes`: attributes to set on the customer (a string value) or remove (`null`).
/// Names starting with `$` are reserved (`$email`, `$displayName`, `$phoneNumber`, `$mediaSource`, `$campaign`);
/// any other is a custom attribute (1–40 characters from `A–Z a–z 0–9 _ . -`, at most 50 per customer). A value
/// is at most 500 bytes.
public struct AttributesPost: Codable, Sendable, Hashable {
    /// Name → value (`nil`: remove it).
    public var attributes: [String: String?]

    /// Makes the body.
    public init(attributes: [String: String?]) { self.attributes = attributes }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable { case attributes }

    /// Writes `null` for a removal.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        var fields = c.nestedContainer(keyedBy: AnyName.self, forKey: .attributes)
        for (name, value) in attributes {
            let key = AnyName(stringValue: name)
            if let value { try fields.encode(value, forKey: key) } else { try fields.encodeNil(forKey: key) }
        }
    }

    /// Any attribute name, as a key.
    struct AnyName: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

/// The answer of `POST /v1/subscribers/{id}/attributes`: the customer's attributes after the change.
public struct AttributesResponse: Codable, Sendable, Hashable {
    /// Name → value.
    public var attributes: [String: String]

    /// Makes the answer.
    public init(attributes: [String: String]) { self.attributes = attributes }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable { case attributes }
}

extension AttributesPost: APIDocumented {
    /// What the object says of itself.
    public static let shape = APIObjectShape(isClosed: true)

    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .attributes:
            .required(
                .map(of: .text.length(0...500).nullable).members(1...100).described(
                    "Reserved names: $email, $displayName, $phoneNumber, $mediaSource, $campaign; custom names: 1–40 characters from A–Z a–z 0–9 _ . -, at most 50 per customer; null removes"
                ))
        }
    }
}

extension AttributesResponse: APIDocumented {
    /// What the object says of itself.
    public static let shape = APIObjectShape(isClosed: true)

    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .attributes: .required(.map(of: .text))
        }
    }
}
