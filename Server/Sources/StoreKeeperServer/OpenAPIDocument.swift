import Foundation
import StoreKeeperAPI
import SubscriptionEngine
import SubscriptionMetrics

/// The OpenAPI 3.1 document of the `/v1` API, served at `/openapi.json`. Its `paths` are generated from the route
/// declarations (``APIRoute/all`` and each route's ``APIOperation``); its `components` from the API types those
/// declarations name, each describing its own members (``APIDocumented``), beside the vocabularies derived from
/// the server's own enums (``vocabularies``). No schema is written by hand.
public enum OpenAPIDocument {
    /// The document as served: JSON with sorted keys.
    public static let bytes: [UInt8] = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return Array((try? encoder.encode(document(components: components()))) ?? Data())
    }()

    /// The whole document over `components`.
    static func document(components: JSONValue) -> JSONValue {
        .object([
            "openapi": .string("3.1.0"),
            "info": .object([
                "title": .string("StoreKeeper"), "version": .string("1.0.0"),
                "description": .string(
                    "Self-hosted App Store subscription backend. Every error is {\"error\": {\"code\", \"message\"}}. "
                        + "Every API key belongs to one project (an app, or apps the configuration groups); a key "
                        + "reaches only its project's subscribers, and the same app_user_id in two projects is two "
                        + "customers."),
            ]),
            "servers": .array([.object(["url": .string("http://127.0.0.1:8080")])]),
            "paths": paths(APIRoute.all),
            "components": components,
        ])
    }

    /// The `paths` object of `routes`: each route's document path, with one operation per method.
    static func paths(_ routes: [APIRoute]) -> JSONValue {
        var paths: [String: [String: JSONValue]] = [:]
        for route in routes {
            paths[documentPath(route), default: [:]][route.method.rawValue.lowercased()] = operation(route)
        }
        return .object(paths.mapValues(JSONValue.object))
    }

    /// `route`'s path as the document writes it, the declaration's own: `/v1/subscribers/{app_user_id}`.
    public static func documentPath(_ route: APIRoute) -> String { "/" + route.path }

    /// One operation object.
    static func operation(_ route: APIRoute) -> JSONValue {
        let operation = route.operation
        var success: [String: JSONValue] = ["description": .string(operation.statusDescription)]
        if !operation.answer.isEmpty {
            success["content"] = content(operation.answer)
        }
        var responses: [String: JSONValue] = [String(operation.status): .object(success)]
        for status in operation.errors {
            responses[status] = .object(["$ref": .string("#/components/responses/Error")])
        }
        var fields: [String: JSONValue] = [
            "summary": .string(operation.summary), "responses": .object(responses),
            "security": security(route.access),
        ]
        if case .secretKey(let scope) = route.access {
            // The secret key's scope the route needs (`read` < `support` < `admin`).
            fields["x-storekeeper-scope"] = .string(scope.rawValue)
        }
        let parameters = route.endpoint.pathParameters + operation.parameters
        if !parameters.isEmpty {
            fields["parameters"] = .array(parameters.map(parameter))
        }
        if let body = operation.body {
            fields["requestBody"] = .object([
                "content": content([("application/json", body)]), "required": .boolean(true),
            ])
        }
        return .object(fields)
    }

    /// A `content` object: each media type with its schema.
    static func content(_ answer: [(mediaType: String, schema: APISchema)]) -> JSONValue {
        .object(Dictionary(uniqueKeysWithValues: answer.map { ($0.mediaType, .object(["schema": $0.schema.json])) }))
    }

    /// One parameter object.
    static func parameter(_ parameter: APIParameter) -> JSONValue {
        var fields: [String: JSONValue] = [
            "in": .string(parameter.location.rawValue), "name": .string(parameter.name),
            "required": .boolean(parameter.required), "schema": parameter.schema.json,
        ]
        if let description = parameter.description { fields["description"] = .string(description) }
        return .object(fields)
    }

    /// Who may call: Apple's routes take no key; a public-key route takes either key.
    static func security(_ access: APIRoute.Access) -> JSONValue {
        switch access {
        case .apple: .array([])
        case .publicKey: .array([.object(["publicKey": .array([])]), .object(["secretKey": .array([])])])
        case .secretKey: .array([.object(["secretKey": .array([])])])
        }
    }

    /// The components: the schema of every API type the routes' bodies and answers refer to (and the types those
    /// refer to, each made from its own description, ``APIDocumented``), the error answer, the key schemes, and
    /// ``vocabularies``.
    static func components() -> JSONValue {
        var schemas = vocabularies.mapValues(\.json)
        var pending = [APIComponent(ErrorBody.self)]
        for route in APIRoute.all {
            let operation = route.operation
            let used =
                [operation.body].compactMap { $0 } + operation.answer.map(\.schema)
                + (route.endpoint.pathParameters + operation.parameters).map(\.schema)
            pending += used.flatMap(\.components)
        }
        while let component = pending.popLast() {
            guard schemas[component.name] == nil else { continue }
            let schema = component.schema()
            schemas[component.name] = schema.json
            pending += schema.components
        }
        let error: JSONValue = .object([
            "description": .string("An error"),
            "content": .object(["application/json": .object(["schema": APISchema.type(ErrorBody.self).json])]),
        ])
        return .object([
            "schemas": .object(schemas), "responses": .object(["Error": error]),
            "securitySchemes": .object([
                "publicKey": keyScheme("Public SDK key (pk_\u{2026})"),
                "secretKey": keyScheme("Secret key (sk_\u{2026})"),
            ]),
        ])
    }

    /// A bearer key scheme.
    static func keyScheme(_ description: String) -> JSONValue {
        .object(["type": .string("http"), "scheme": .string("bearer"), "description": .string(description)])
    }

    /// The schemas of the words the API takes from the server's enums (a metric's name, interval and split, a
    /// webhook event's type), each derived from the enum's cases, so a new metric or event type is documented by
    /// adding its case.
    static let vocabularies: [String: APISchema] = [
        "MetricName": .oneOf(MetricName.allCases.map(\.rawValue)),
        "MetricInterval": .oneOf(MetricInterval.allCases.map(\.rawValue)),
        "MetricSplit": .oneOf(MetricSplit.allCases.map(\.rawValue)),
        "WebhookEventType": .oneOf(ChangeKind.allCases.map(\.rawValue)),
    ]

    /// The names of ``vocabularies``' schemas.
    public static var vocabularyNames: Set<String> { Set(vocabularies.keys) }
}
