/// An API type that describes its own members for the OpenAPI document: beside its `CodingKeys` (the one list of
/// its wire names, which its decoding and its JSON writer follow) it says, key by key in an exhaustive `switch`,
/// what each member holds. The document's component is made from that (``objectSchema``): a member added to the
/// keys does not compile until it is described, and none is written twice.
public protocol APIDocumented {
    /// The wire names (the type's `CodingKeys`).
    associatedtype FieldKey: CodingKey & CaseIterable

    /// What `key`'s member holds, and whether every body has it.
    static func field(_ key: FieldKey) -> APIField
    /// What the object as a whole says: its description, and whether other members are refused.
    static var shape: APIObjectShape { get }
    /// Its component's name in the document (the type's own name unless it says otherwise).
    static var schemaName: String { get }
}

extension APIDocumented {
    /// An object that says nothing of itself and documents no refusal of other members.
    public static var shape: APIObjectShape { APIObjectShape() }

    /// The type's own name.
    public static var schemaName: String { String(describing: Self.self) }

    /// The object's schema: each key's member, the required ones listed in key order, then the shape's words.
    public static var objectSchema: APISchema {
        var properties: [String: JSONValue] = [:]
        var required: [JSONValue] = []
        var components: [APIComponent] = []
        for key in FieldKey.allCases {
            let field = field(key)
            properties[key.stringValue] = field.schema.json
            components += field.schema.components
            if field.isRequired { required.append(.string(key.stringValue)) }
        }
        var fields: [String: JSONValue] = ["type": .string("object"), "properties": .object(properties)]
        if !required.isEmpty { fields["required"] = .array(required) }
        if shape.isClosed { fields["additionalProperties"] = .boolean(false) }
        if let description = shape.description { fields["description"] = .string(description) }
        if let members = shape.members {
            fields["minProperties"] = .integer(Int64(members.lowerBound))
            fields["maxProperties"] = .integer(Int64(members.upperBound))
        }
        return APISchema(json: .object(fields), components: components)
    }
}

/// One member of an API type as the document describes it.
public struct APIField: Sendable {
    /// Its values.
    public let schema: APISchema
    /// Whether every body has it (a request is refused without it; an answer always writes it, `null` included).
    public let isRequired: Bool

    /// A member every body has.
    public static func required(_ schema: APISchema) -> APIField { APIField(schema: schema, isRequired: true) }

    /// A member a body may leave out.
    public static func optional(_ schema: APISchema) -> APIField { APIField(schema: schema, isRequired: false) }
}

/// What an API type's schema says of the object as a whole.
public struct APIObjectShape: Sendable {
    /// Whether members other than its keys are refused (`additionalProperties: false`).
    public var isClosed: Bool
    /// What it is, when its name does not say.
    public var description: String?
    /// How many members it may have, when bounded.
    public var members: ClosedRange<Int>?

    /// Makes a shape.
    public init(isClosed: Bool = false, description: String? = nil, members: ClosedRange<Int>? = nil) {
        self.isClosed = isClosed
        self.description = description
        self.members = members
    }

    /// An object that refuses other members.
    public static let closed = APIObjectShape(isClosed: true)
}

/// An API type a schema refers to: its component's name and its schema, made when the document is.
public struct APIComponent: Sendable {
    /// The component's name.
    public let name: String
    /// The type's schema.
    public let schema: @Sendable () -> APISchema

    /// The component of `type`.
    public init<Type: APIDocumented>(_ type: Type.Type) {
        name = Type.schemaName
        schema = { Type.objectSchema }
    }
}
