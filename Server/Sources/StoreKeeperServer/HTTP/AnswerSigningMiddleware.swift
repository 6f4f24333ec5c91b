import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import StoreKeeperAPI

/// Signs every answer to a request that carries ``AnswerSignature/nonceHeader`` (the SDK sends one when it has the
/// server's public key), errors included: it runs outside every other middleware, so the signed bytes are the
/// bytes sent. A nonce that is not 16–128 URL-safe base64 characters is refused (400 `invalid_request`), signed.
/// A request naming ``AnswerSignature/schemeV2`` gets a version 2 signature, bound to its body and key: the body
/// is read here first (up to the API's body limit; past it the answer is 413 `body_too_large`, signed), and the
/// routes read the same bytes.
struct AnswerSigningMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The configured keys.
    let signer: AnswerSigner
    /// The server's clock, for ``AnswerSignature/dateHeader``.
    let now: @Sendable () -> Date
    /// The most bytes a request body may have (the API's limit).
    var maximumRequestBytes = 1 << 20
    /// The largest answer signed; a larger or streamed one (a CSV export, never an SDK answer) goes out unsigned.
    static var maximumBodyBytes: Int { 4 << 20 }

    static var nonceField: HTTPField.Name { HTTPField.Name(AnswerSignature.nonceHeader)! }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard signer.isEnabled, let nonce = request.headers[Self.nonceField] else {
            return try await next(request, context)
        }
        var response: Response
        var binding: AnswerSignature.Request?
        var request = request
        if request.headers[Self.schemeField] == AnswerSignature.schemeV2 {
            var received = ByteBuffer()
            do {
                received = try await request.body.collect(upTo: maximumRequestBytes)
            } catch let error as HTTPError where error.status == .contentTooLarge {
                let refusal = APIError(
                    .contentTooLarge, .bodyTooLarge, "the body exceeds \(maximumRequestBytes) bytes")
                return try await signed(
                    try refusal.response(from: request, context: context), to: request, nonce: nonce,
                    binding: AnswerSigner.binding(body: [UInt8](), authorization: request.headers[.authorization]))
            }
            binding = AnswerSigner.binding(
                body: received.readableBytesView, authorization: request.headers[.authorization])
            request.body = Hummingbird.RequestBody(buffer: received)
        }
        if AnswerSignature.isNonce(nonce) {
            do {
                response = try await next(request, context)
            } catch let error as any HTTPResponseError {
                response = try error.response(from: request, context: context)
            }
        } else {
            response = try APIError(
                .badRequest, .invalidRequest,
                "\(AnswerSignature.nonceHeader) must be 16 to 128 characters of A-Z a-z 0-9 - _"
            ).response(from: request, context: context)
        }
        return try await signed(response, to: request, nonce: nonce, binding: binding)
    }

    static var schemeField: HTTPField.Name { HTTPField.Name(AnswerSignature.schemeHeader)! }

    /// `response` with its date and signatures; only answers of a known length are signed (every SDK answer), a
    /// stream is sent as it is.
    func signed(_ response: Response, to request: Request, nonce: String, binding: AnswerSignature.Request?)
        async throws -> Response
    {
        var response = response
        guard let length = response.body.contentLength, length <= Self.maximumBodyBytes else { return response }
        let collector = BodyCollector(limit: length)
        try await response.body.write(CollectingWriter(collector: collector))
        guard let body = collector.bytes else { return response }
        let date = String(Int64((now().timeIntervalSince1970 * 1_000).rounded(.down)))
        let signatures = try signer.signatures(
            nonce: nonce, method: request.method.rawValue, target: request.uri.description,
            status: Int(response.status.code), date: date, body: body.readableBytesView, request: binding)
        response.body = ResponseBody(byteBuffer: body)
        response.headers[HTTPField.Name(AnswerSignature.dateHeader)!] = date
        response.headers[HTTPField.Name(AnswerSignature.signatureHeader)!] = signatures
        return response
    }
}

/// The bytes of an answer's body, gathered to be signed; `nil` past the limit.
final class BodyCollector: @unchecked Sendable {
    let limit: Int
    private(set) var bytes: ByteBuffer? = ByteBuffer()

    init(limit: Int) { self.limit = limit }

    func append(_ buffer: ByteBuffer) {
        guard var gathered = bytes, gathered.readableBytes + buffer.readableBytes <= limit else {
            bytes = nil
            return
        }
        var buffer = buffer
        gathered.writeBuffer(&buffer)
        bytes = gathered
    }
}

/// A body writer that hands every buffer to a ``BodyCollector``.
struct CollectingWriter: ResponseBodyWriter {
    let collector: BodyCollector

    mutating func write(_ buffer: ByteBuffer) async throws { collector.append(buffer) }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
