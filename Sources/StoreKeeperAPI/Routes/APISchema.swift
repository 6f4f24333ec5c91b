/// A schema in the OpenAPI document: a reference to an API type's component, or one written inline. Built from
/// the words below (`.text.length(1...256)`, `.integer(1, 90)`, `.array(of: .type(Grant.self))`), so each API
/// type describes its members beside them (``APIDocumented``) and no schema is written as JSON by hand.
public struct APISchema: Sendable {
    /// The schema as JSON.
    public let json: JSONValue
    /// The API types it refers to, whose components the document holds.
    public let components: [APIComponent]

    /// A schema of `json`, referring to `components`.
    public init(json: JSONValue, components: [APIComponent] = []) {
        self.json = json
        self.components = components
    }

    /// A schema of these fields.
    init(_ fields: [String: JSONValue], components: [APIComponent] = []) {
        self.init(json: .object(fields), components: components)
    }

    /// A reference to the component schema `name` the server adds itself (a word of its own enums).
    public static func named(_ name: String) -> APISchema {
        APISchema(["$ref": .string("#/components/schemas/" + name)])
    }

    /// A reference to the API type `type`'s component.
    public static func type<Type: APIDocumented>(_ type: Type.Type) -> APISchema {
        APISchema(
            ["$ref": .string("#/components/schemas/" + Type.schemaName)], components: [APIComponent(Type.self)])
    }

    /// The API type `type`'s schema written in place (a small object only its parent uses).
    public static func inline<Type: APIDocumented>(_ type: Type.Type) -> APISchema { Type.objectSchema }

    /// A string of at most `maxLength` characters (and at least `minLength`, when given).
    public static func string(maxLength: Int? = nil, minLength: Int? = nil) -> APISchema {
        text.length((minLength ?? 0)...(maxLength ?? Int.max))
    }

    /// An integer from `minimum` to `maximum`.
    public static func integer(_ minimum: Int, _ maximum: Int) -> APISchema { integer.range(minimum...maximum) }

    /// One of `values`, in this order.
    public static func oneOf(_ values: [String]) -> APISchema {
        APISchema(["type": .string("string"), "enum": .array(values.map(JSONValue.string))])
    }

    /// An array of `items`.
    public static func array(of items: APISchema) -> APISchema {
        APISchema(["type": .string("array"), "items": items.json], components: items.components)
    }

    /// An object whose members, of any names, are each `values`.
    public static func map(of values: APISchema) -> APISchema {
        APISchema(["type": .string("object"), "additionalProperties": values.json], components: values.components)
    }

    /// A value of any of these JSON types (`["string", "integer", "boolean"]`).
    public static func anyOf(types: [String]) -> APISchema {
        APISchema(["type": .array(types.map(JSONValue.string))])
    }

    /// Any text (a CSV or NDJSON answer, or a string the type says no more of).
    public static let text = APISchema(["type": .string("string")])
    /// A whole number.
    public static let integer = APISchema(["type": .string("integer")])
    /// A number.
    public static let number = APISchema(["type": .string("number")])
    /// `true` or `false`.
    public static let boolean = APISchema(["type": .string("boolean")])
    /// A calendar day, `2026-12-04`.
    public static let date = text.format("date")
    /// An instant, `2026-12-04T10:00:00Z`.
    public static let dateTime = text.format("date-time")
    /// A UUID.
    public static let uuid = text.format("uuid")
    /// Any JSON object (a body the route reads itself, such as Apple's).
    public static let object = APISchema(["type": .string("object")])
    /// A name the project gives (an offering's, a rule's, an experiment's): 1–100 of `A–Z a–z 0–9 . _ -`.
    public static let identifier = text.pattern(#"^[A-Za-z0-9._-]{1,100}$"#)
    /// Any JSON object, said so (`additionalProperties: true`).
    public static let anyObject = object.with("additionalProperties", .boolean(true))

    /// An object with these properties (each optional), described when `description` is given.
    public static func properties(_ properties: [String: APISchema], description: String? = nil) -> APISchema {
        let schema = APISchema(
            ["type": .string("object"), "properties": .object(properties.mapValues(\.json))],
            components: properties.values.flatMap(\.components))
        return description.map(schema.described) ?? schema
    }

    /// This schema with `key` set to `value`.
    public func with(_ key: String, _ value: JSONValue) -> APISchema {
        guard case .object(var fields) = json else { return self }
        fields[key] = value
        return APISchema(json: .object(fields), components: components)
    }

    /// This schema, or `null` (added to its `enum` too, when it lists its values).
    public var nullable: APISchema {
        guard case .object(let fields) = json else { return self }
        var schema = self
        if case .array(let values)? = fields["enum"] { schema = with("enum", .array(values + [.null])) }
        switch fields["type"] {
        case .string(let type)?: return schema.with("type", .array([.string(type), .string("null")]))
        case .array(let types)?: return schema.with("type", .array(types + [.string("null")]))
        default:
            return APISchema(
                ["oneOf": .array([json, .object(["type": .string("null")])])], components: components)
        }
    }

    /// This schema, described.
    public func described(_ description: String) -> APISchema { with("description", .string(description)) }

    /// This string schema in a format (`date-time`, `uuid`).
    public func format(_ format: String) -> APISchema { with("format", .string(format)) }

    /// This string schema, matching `pattern`.
    public func pattern(_ pattern: String) -> APISchema { with("pattern", .string(pattern)) }

    /// This string schema, of a length in `range` (an upper bound of `Int.max` is left out).
    public func length(_ range: ClosedRange<Int>) -> APISchema {
        bounded("minLength", "maxLength", range)
    }

    /// This number schema, in `range` (a bound of `Int.min` or `Int.max` is left out).
    public func range(_ range: ClosedRange<Int>) -> APISchema { bounded("minimum", "maximum", range) }

    /// This array schema, of a count in `range`.
    public func count(_ range: ClosedRange<Int>) -> APISchema { bounded("minItems", "maxItems", range) }

    /// This object schema, with a number of members in `range`.
    public func members(_ range: ClosedRange<Int>) -> APISchema {
        bounded("minProperties", "maxProperties", range)
    }

    /// This schema, except the value `value`.
    public func excluding(_ value: String) -> APISchema { with("not", .object(["const": .string(value)])) }

    /// This schema with `lower` and `upper` set from `range`, each left out at its extreme (0 counts as one for
    /// lengths and counts).
    private func bounded(_ lower: String, _ upper: String, _ range: ClosedRange<Int>) -> APISchema {
        var schema = self
        if range.lowerBound != Int.min, range.lowerBound != 0 || lower == "minimum" {
            schema = schema.with(lower, .integer(Int64(range.lowerBound)))
        }
        if range.upperBound != Int.max { schema = schema.with(upper, .integer(Int64(range.upperBound))) }
        return schema
    }
}
