import Foundation
import StoreKeeperAPI
import StoreKeeperServer

/// Holds a real answer to the served OpenAPI document: the route must document the answer's status, and a JSON
/// answer must validate against the schema the document gives that status (a JSON Schema validator for the
/// keywords the document uses: `$ref`, `type`, `enum`, `const`, `not`, `oneOf`, `properties`, `required`,
/// `additionalProperties`, `items`, the length, count and range bounds, `pattern` and the `date-time`, `date`
/// and `uuid` formats). An unknown keyword is itself a problem, so the document cannot outgrow the check.
struct OpenAPIAnswerValidator {
    /// The document as served.
    let document: JSONValue

    /// The served document.
    init() throws { document = try JSONDecoder().decode(JSONValue.self, from: Data(OpenAPIDocument.bytes)) }

    /// What is wrong with `body`, answered `status` by `route` (empty: nothing).
    func problems(_ route: APIRoute, status: Int, body: Data, contentType: String?) -> [String] {
        let operation = document["paths"]?[OpenAPIDocument.documentPath(route)]?[route.method.rawValue.lowercased()]
        guard case .object(let responses)? = operation?["responses"] else { return ["\(route) is not documented"] }
        let family = "\(status / 100)XX"
        guard var response = responses[String(status)] ?? responses[family] else {
            return ["\(route) answered \(status), which it does not document (\(responses.keys.sorted()))"]
        }
        if let reference = response["$ref"]?.stringValue { response = resolve(reference) ?? .null }
        guard case .object(let content)? = response["content"] else {
            return body.isEmpty ? [] : ["\(route) \(status): a body where the document gives none"]
        }
        let mediaType = contentType?.split(separator: ";").first.map(String.init) ?? ""
        guard let schema = content[mediaType]?["schema"] else {
            return ["\(route) \(status): \(mediaType) is not among \(content.keys.sorted())"]
        }
        guard mediaType == "application/json" else { return [] }
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: body) else {
            return ["\(route) \(status): the body is not JSON"]
        }
        var found: [String] = []
        check(value, against: schema, at: "\(route) \(status) $", into: &found)
        return found
    }

    /// The component a `#/components/…` reference names.
    func resolve(_ reference: String) -> JSONValue? {
        reference.split(separator: "/").dropFirst().reduce(document as JSONValue?) { $0?[String($1)] }
    }

    /// Adds to `found` each way `value` at `path` breaks `schema`.
    func check(_ value: JSONValue, against schema: JSONValue, at path: String, into found: inout [String]) {
        guard case .object(let keywords) = schema else { return found.append("\(path): schema \(schema)") }
        for (keyword, rule) in keywords {
            switch keyword {
            case "$ref":
                guard let target = rule.stringValue.flatMap(resolve) else { return found.append("\(path): \(rule)") }
                check(value, against: target, at: path, into: &found)
            case "type":
                let allowed: [String] =
                    if case .array(let types) = rule { types.compactMap(\.stringValue) } else {
                        [rule.stringValue ?? ""]
                    }
                if !allowed.contains(where: { Self.isOfType(value, $0) }) {
                    found.append("\(path): \(Self.describe(value)) is not \(allowed.joined(separator: " or "))")
                }
            case "enum":
                if case .array(let values) = rule, !values.contains(value) {
                    found.append("\(path): \(Self.describe(value)) is not one of the listed values")
                }
            case "const":
                if value != rule { found.append("\(path): \(Self.describe(value)) is not the constant \(rule)") }
            case "not":
                var inner: [String] = []
                check(value, against: rule, at: path, into: &inner)
                if inner.isEmpty { found.append("\(path): \(Self.describe(value)) matches what `not` excludes") }
            case "oneOf":
                guard case .array(let options) = rule else { continue }
                let matching = options.filter { option in
                    var inner: [String] = []
                    check(value, against: option, at: path, into: &inner)
                    return inner.isEmpty
                }
                if matching.count != 1 { found.append("\(path): matches \(matching.count) of oneOf's schemas") }
            case "properties", "required", "additionalProperties", "minProperties", "maxProperties":
                checkObject(value, keyword, rule, keywords, at: path, into: &found)
            case "items", "minItems", "maxItems":
                checkArray(value, keyword, rule, at: path, into: &found)
            case "minLength", "maxLength", "pattern", "format":
                checkString(value, keyword, rule, at: path, into: &found)
            case "minimum", "maximum":
                checkNumber(value, keyword, rule, at: path, into: &found)
            case "description": continue
            default: found.append("\(path): the validator does not know the keyword \(keyword)")
            }
        }
    }

    /// The object keywords.
    func checkObject(
        _ value: JSONValue, _ keyword: String, _ rule: JSONValue, _ keywords: [String: JSONValue], at path: String,
        into found: inout [String]
    ) {
        guard case .object(let members) = value else { return }
        switch (keyword, rule) {
        case ("properties", .object(let properties)):
            for (name, member) in members {
                if let schema = properties[name] { check(member, against: schema, at: "\(path).\(name)", into: &found) }
            }
        case ("required", .array(let names)):
            for name in names.compactMap(\.stringValue) where members[name] == nil {
                found.append("\(path): the required member \(name) is missing")
            }
        case ("additionalProperties", .boolean(let allowed)):
            let declared = keywords["properties"].flatMap { if case .object(let p) = $0 { Set(p.keys) } else { nil } }
            let extra = Set(members.keys).subtracting(declared ?? [])
            if !allowed, !extra.isEmpty { found.append("\(path): undocumented members \(extra.sorted())") }
        case ("additionalProperties", .object):
            let declared = keywords["properties"].flatMap { if case .object(let p) = $0 { Set(p.keys) } else { nil } }
            for (name, member) in members where !(declared ?? []).contains(name) {
                check(member, against: rule, at: "\(path).\(name)", into: &found)
            }
        case ("minProperties", .integer(let bound)) where members.count < bound,
            ("maxProperties", .integer(let bound)) where members.count > bound:
            found.append("\(path): \(members.count) members, \(keyword) \(bound)")
        default: return
        }
    }

    /// The array keywords.
    func checkArray(
        _ value: JSONValue, _ keyword: String, _ rule: JSONValue, at path: String, into found: inout [String]
    ) {
        guard case .array(let elements) = value else { return }
        switch (keyword, rule) {
        case ("items", _):
            for (index, element) in elements.enumerated() {
                check(element, against: rule, at: "\(path)[\(index)]", into: &found)
            }
        case ("minItems", .integer(let bound)) where elements.count < bound,
            ("maxItems", .integer(let bound)) where elements.count > bound:
            found.append("\(path): \(elements.count) elements, \(keyword) \(bound)")
        default: return
        }
    }

    /// The string keywords (lengths in Unicode scalars, as JSON Schema counts code points).
    func checkString(
        _ value: JSONValue, _ keyword: String, _ rule: JSONValue, at path: String, into found: inout [String]
    ) {
        guard case .string(let text) = value else { return }
        let length = text.unicodeScalars.count
        switch (keyword, rule) {
        case ("minLength", .integer(let bound)) where length < bound,
            ("maxLength", .integer(let bound)) where length > bound:
            found.append("\(path): \(length) characters, \(keyword) \(bound)")
        case ("pattern", .string(let pattern)):
            guard let regex = try? Regex(pattern) else { return found.append("\(path): bad pattern \(pattern)") }
            if (try? regex.firstMatch(in: text)) == nil {
                found.append("\(path): \(text.debugDescription) !~ \(pattern)")
            }
        case ("format", .string(let format)):
            let valid =
                switch format {
                case "date-time": ISO8601DateFormatter().date(from: text) != nil
                case "date": text.wholeMatch(of: /\d{4}-\d{2}-\d{2}/) != nil
                case "uuid": UUID(uuidString: text) != nil
                default: false
                }
            if !valid { found.append("\(path): \(text.debugDescription) is not a \(format)") }
        default: return
        }
    }

    /// The number keywords.
    func checkNumber(
        _ value: JSONValue, _ keyword: String, _ rule: JSONValue, at path: String, into found: inout [String]
    ) {
        guard let number = Self.number(value), let bound = Self.number(rule) else { return }
        if keyword == "minimum" ? number < bound : number > bound {
            found.append("\(path): \(number), \(keyword) \(bound)")
        }
    }

    /// A number's value.
    static func number(_ value: JSONValue) -> Double? {
        switch value {
        case .integer(let whole): Double(whole)
        case .number(let number): number
        case .decimal(let decimal): NSDecimalNumber(decimal: decimal).doubleValue
        default: nil
        }
    }

    /// Whether `value` is of the JSON Schema type `type` (an integer is a number too).
    static func isOfType(_ value: JSONValue, _ type: String) -> Bool {
        switch (value, type) {
        case (.null, "null"), (.boolean, "boolean"), (.string, "string"), (.array, "array"), (.object, "object"),
            (.integer, "integer"), (.integer, "number"), (.number, "number"), (.decimal, "number"):
            true
        default: false
        }
    }

    /// A value, short, for a message.
    static func describe(_ value: JSONValue) -> String {
        let text = String(describing: value)
        return text.count > 80 ? String(text.prefix(80)) + "…" : text
    }
}
