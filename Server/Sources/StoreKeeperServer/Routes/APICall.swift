import Foundation
import Hummingbird
import StoreKeeperAPI
import StoreKeeperStorage

/// One authorised call of a `/v1` route, as its feature's handler sees it: the request, the caller's key (`nil`
/// for Apple's routes) and the ways a handler reads the request and writes its answer. Reading is strict: a body
/// past the limit, malformed JSON, an unknown, missing or mistyped field each have their own error code.
struct APICall: Sendable {
    /// The request.
    let request: Request
    /// Its context (the router's parameters and the request's logger).
    let context: BasicRequestContext
    /// The caller's key; `nil` on Apple's routes.
    let caller: APIKeyRecord?
    /// The most bytes a body may have.
    let maximumBodyBytes: Int

    /// The caller's app (`""` on Apple's routes).
    var bundleID: String { caller?.bundleID ?? "" }

    /// Whether the caller holds a secret key.
    var isSecret: Bool { caller?.kind == .secret }

    /// The path's `:id` (an app user id, an endpoint id, a delivery id or a metric's name), percent-decoded.
    func id() throws -> String {
        let raw = try context.parameters.require("id")
        return raw.removingPercentEncoding ?? raw
    }

    /// A query parameter.
    func query(_ name: String) -> String? { request.uri.queryParameters.get(name).map { String($0) } }

    /// The body's bytes, up to ``maximumBodyBytes``.
    func body() async throws -> Data {
        do {
            return Data(try await request.body.collect(upTo: maximumBodyBytes).readableBytesView)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw APIError(.contentTooLarge, .bodyTooLarge, "the body exceeds \(maximumBodyBytes) bytes")
        }
    }

    /// The body as `Body`, with only the fields it defines: an unknown one is a typo or a newer client's field
    /// this server would silently ignore, so it is refused by name, as are a missing field and one of the wrong
    /// type. The JSON is parsed once: the field check and the decoding read the same decoder.
    func decode<Body: RequestBody>(_ type: Body.Type) async throws -> Body {
        try decode(type, from: try await body())
    }

    /// `data` as `Body`, read as strictly as ``decode(_:)`` reads the request's body.
    func decode<Body: RequestBody>(_ type: Body.Type, from data: Data) throws -> Body {
        do {
            return try Self.decoder.decode(StrictBody<Body>.self, from: data).body
        } catch let unknown as UnknownField {
            throw APIError.badRequest(
                .unknownField,
                "unknown field \"\(unknown.name.prefix(100))\"; expected \(unknown.expected.joined(separator: ", "))")
        } catch DecodingError.keyNotFound(let key, _) {
            throw APIError.badRequest(.missingField, "\(key.stringValue) is required and must be a non-empty string")
        } catch DecodingError.typeMismatch(let type, let context) where !context.codingPath.isEmpty {
            throw APIError.badRequest(.invalidField, Self.wrongType(type, context))
        } catch DecodingError.valueNotFound(let type, let context) where !context.codingPath.isEmpty {
            throw APIError.badRequest(.invalidField, Self.wrongType(type, context))
        } catch is DecodingError {
            throw APIError.badRequest(.invalidJSON, "the body is not a JSON object")
        }
    }

    /// What a field of the wrong type should have been: `url must be a string`, `event_types must be an array of
    /// strings`.
    static func wrongType(_ type: Any.Type, _ context: DecodingError.Context) -> String {
        let field = context.codingPath[0].stringValue
        return context.codingPath.count > 1 || type is [String].Type
            ? "\(field) must be an array of strings" : "\(field) must be a string"
    }

    /// `value`, unless it is empty.
    func required(_ value: String, _ name: String) throws -> String {
        guard !value.isEmpty else {
            throw APIError.badRequest(.missingField, "\(name) is required and must be a non-empty string")
        }
        return value
    }

    static let decoder = APICoding.decoder()
    static let encoder = APICoding.encoder()

    /// A 200 answer whose JSON is written already.
    func json(_ bytes: [UInt8]) -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// An answer of `value` as the API's JSON.
    func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        Response(
            status: status, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: try Self.encoder.encode(value))))
    }
}
