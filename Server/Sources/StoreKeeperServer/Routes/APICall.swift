import AppStoreVerification
import Foundation
import Hummingbird
import StoreKeeperAPI
import StoreKeeperStorage
import StoreKeeperWire

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

    /// Whether the caller writes as the owner's backend on a route a public key may also call: a secret key with
    /// the `support` or `admin` scope. A `read` key writes there no more than the app's public key does.
    var writesAsOwner: Bool { isSecret && caller?.scope != .read }

    /// Who asks for a merge: the owner's backend (``writesAsOwner``) or the app.
    var mergeAuthority: MergeAuthority { writesAsOwner ? .owner : .app }

    /// The path's parameter `parameter` (as the route's declaration names it: `.appUserID`), percent-decoded.
    /// - Throws: `invalid_parameter` when its percent-encoding is broken (`%zz`, a lone `%`, bytes that are not
    ///   UTF-8): kept raw, it would name another id than the one a proxy or log decodes.
    func parameter(_ parameter: APIParameter) throws -> String { try self.parameter(named: parameter.name) }

    /// The path's parameter `name` (`{name}` in the route's path), percent-decoded.
    /// - Throws: `invalid_parameter` when its percent-encoding is broken.
    func parameter(named name: String) throws -> String {
        let raw = try context.parameters.require(name)
        guard let decoded = Self.percentDecoded(raw) else {
            throw ServiceError.invalid(
                .invalidParameter,
                "the \(name) in the path has broken percent-encoding: \(UntrustedText.quoted(raw))")
        }
        return decoded
    }

    /// `text` with its percent-escapes decoded, or `nil` when one is broken (`%` not followed by two hex digits)
    /// or the bytes they make are not UTF-8. (Foundation on Linux keeps a broken escape as written.)
    static func percentDecoded(_ text: String) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        func hex(_ byte: UInt8?) -> UInt8? {
            switch byte {
            case .some(let b) where (0x30...0x39).contains(b): b - 0x30
            case .some(let b) where (0x41...0x46).contains(b): b - 0x41 + 10
            case .some(let b) where (0x61...0x66).contains(b): b - 0x61 + 10
            default: nil
            }
        }
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = hex(iterator.next()), let low = hex(iterator.next()) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// A query parameter.
    func query(_ name: String) -> String? { request.uri.queryParameters.get(name).map { String($0) } }

    /// The body's bytes, up to ``maximumBodyBytes``.
    func body() async throws -> Data {
        do {
            let data = Data(try await request.body.collect(upTo: maximumBodyBytes).readableBytesView)
            AuditTrail.current?.describe(AuditNote.summary(of: data))
            return data
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw APIError(.contentTooLarge, .bodyTooLarge, "the body exceeds \(maximumBodyBytes) bytes")
        }
    }

    /// The body as `Body`, with only the fields it defines: an unknown one is a typo or a newer client's field
    /// this server would silently ignore, so it is refused by name, as are a missing field and one of the wrong
    /// type. The JSON is parsed once: the field check and the decoding read the same decoder.
    func decode<Body: RequestBody>(_ type: Body.Type) async throws -> Body {
        try Self.strictlyDecoded(type, from: try await body())
    }

    /// `data` as `Body`, read as strictly as ``decode(_:)`` reads the request's body — parsed once, by a parser that
    /// refuses a key given twice, and decoded from that tree, refusing any field at any depth the type does not read
    /// (``StrictJSONDecoder``) — also for a body that did not come through a route (the dashboard's forms, the
    /// configuration file's rules).
    static func strictlyDecoded<Body: Decodable>(_ type: Body.Type, from data: Data) throws -> Body {
        do {
            return try StrictJSONDecoder().decode(Body.self, from: data)
        } catch let error as VerificationError {
            throw ServiceError.invalid(.invalidJSON, "the body is not JSON: \(error.reason)")
        } catch let unknown as StrictJSONDecoder.UnknownField {
            let expected = unknown.expected.isEmpty ? "" : "; expected \(unknown.expected.joined(separator: ", "))"
            throw ServiceError.invalid(.unknownField, "unknown field \"\(unknown.path.prefix(200))\"\(expected)")
        } catch DecodingError.keyNotFound(let key, let context) {
            let path = path(context.codingPath + [key])
            throw ServiceError.invalid(.missingField, "\(path) is required and must be a non-empty string")
        } catch DecodingError.typeMismatch(let type, let context) where !context.codingPath.isEmpty {
            throw ServiceError.invalid(.invalidField, wrongType(type, context))
        } catch DecodingError.valueNotFound(let type, let context) where !context.codingPath.isEmpty {
            throw ServiceError.invalid(.invalidField, wrongType(type, context))
        } catch DecodingError.dataCorrupted(let context) where !context.codingPath.isEmpty {
            throw ServiceError.invalid(
                .invalidField, "\(path(context.codingPath)) is not valid: \(context.debugDescription)")
        } catch is DecodingError {
            throw ServiceError.invalid(.invalidJSON, "the body is not a JSON object")
        }
    }

    /// What a field of the wrong type should have been, named by its whole path: `url must be a string`,
    /// `event_types must be an array of strings`, `rules[0].when.product_id must be a string`.
    static func wrongType(_ type: Any.Type, _ context: DecodingError.Context) -> String {
        "\(path(context.codingPath)) must be \(expected(type))"
    }

    /// A coding path as a person writes it: `rules[0].when.product_id`.
    static func path(_ codingPath: [any CodingKey]) -> String {
        var text = ""
        for key in codingPath {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += (text.isEmpty ? "" : ".") + key.stringValue.prefix(100)
            }
        }
        return text
    }

    /// The kind of JSON value a Swift type is read from.
    static func expected(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is [String].Type: "an array of strings"
        case is Bool.Type: "true or false"
        case is Int.Type, is Int64.Type, is Int32.Type: "an integer"
        case is Double.Type, is Float.Type, is Decimal.Type: "a number"
        case is Date.Type: "a date (2026-01-31T00:00:00Z)"
        case is [String: String].Type: "an object of strings"
        case is [String: Any].Type: "an object"
        case is [Any].Type: "an array"
        default: "a \(String(describing: type).prefix(40))"
        }
    }

    /// `value`, unless it is empty.
    func required(_ value: String, _ name: String) throws -> String {
        guard !value.isEmpty else {
            throw ServiceError.invalid(.missingField, "\(name) is required and must be a non-empty string")
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
