import AppStoreSigning
import AppStoreSimulator
import Foundation
import Hummingbird
import NIOCore

/// Builds JSON responses and reads JSON bodies for the simulator's routes.
enum JSONResponse {
    static func make(_ data: Data, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func encode<Value: Encodable>(_ value: Value, status: HTTPResponse.Status = .ok) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(Int64((date.timeIntervalSince1970 * 1000).rounded()))
        }
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return make(data, status: status)
    }

    static func object(_ object: [String: Any], status: HTTPResponse.Status = .ok) -> Response {
        make(CompactJSON.data(object), status: status)
    }

    static func error(_ code: SimulatorError.Code, _ message: String, status: HTTPResponse.Status) -> Response {
        object(["error": ["code": code.rawValue, "message": message]], status: status)
    }

    static func body(_ request: Request, limit: Int = 1 << 20) async throws -> Data {
        let buffer = try await request.body.collect(upTo: limit)
        return Data(buffer.readableBytesView)
    }

    static func decode<Value: Decodable>(_ type: Value.Type, _ request: Request) async throws -> Value {
        let data = try await body(request)
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch DecodingError.keyNotFound(let key, let context) {
            let path = (context.codingPath + [key]).map(\.stringValue).joined(separator: ".")
            throw SimulatorError(.missingField, "the body has no \(path) (\(Value.self) needs it)")
        } catch DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context) {
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw SimulatorError(
                .invalidField, "\(path.isEmpty ? "the body" : path) has the wrong type for \(Value.self)")
        } catch DecodingError.dataCorrupted(let context) {
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw SimulatorError(
                .invalidField, path.isEmpty ? "the body is not JSON" : "\(path) is not a valid value")
        } catch {
            throw SimulatorError(.invalidJson, "the body is not a valid \(Value.self)")
        }
    }

    /// The one mapping of a simulator refusal to an HTTP status.
    static func status(_ error: SimulatorError) -> HTTPResponse.Status {
        switch error.kind {
        case .invalid: .badRequest
        case .notFound: .notFound
        case .conflict: .conflict
        case .failed: .internalServerError
        }
    }
}
