import Foundation
import Hummingbird
import Logging
import StoreKeeperAPI
import StoreKeeperStorage

/// The `/v1` HTTP API.
struct APIRoutes: Sendable {
    let service: SubscriberService
    let webhooks: WebhookService
    let authenticator: Authenticator
    let maximumBodyBytes: Int

    /// Registers every route of ``APIRoute/all``: the caller is authorised by the route's access before its
    /// handler runs, and every handler acts inside the caller's project.
    func addRoutes(to router: Router<BasicRequestContext>) {
        for route in APIRoute.all {
            router.on(RouterPath(route.path), method: route.method) { request, context in
                let caller: APIKeyRecord? =
                    switch route.access {
                    case .apple: nil
                    case .publicKey: try await authenticator.authorize(request, secretRequired: false)
                    case .secretKey: try await authenticator.authorize(request, secretRequired: true)
                    }
                return try await handle(route, request, context, caller: caller)
            }
        }
    }

    /// Runs one route's handler for `caller`'s key (`nil` for Apple's routes).
    func handle(_ route: APIRoute, _ request: Request, _ context: BasicRequestContext, caller: APIKeyRecord?)
        async throws -> Response
    {
        let bundleID = caller?.bundleID ?? ""
        switch route {
        case .postReceipt:
            let body = try await decode(request, as: ReceiptPost.self)
            return json(
                try await service.postReceipt(
                    appUserID: try required(body.appUserID, "app_user_id"),
                    receipt: try required(body.receipt, "receipt"),
                    deviceID: body.deviceID, bundleID: bundleID))
        case .postTransaction:
            let body = try await decode(request, as: TransactionPost.self)
            return json(
                try await service.postTransaction(
                    appUserID: try required(body.appUserID, "app_user_id"),
                    signedTransaction: try required(body.signedTransaction, "signed_transaction"), bundleID: bundleID))
        case .postNotification:
            let outcome: ApplyOutcome
            let received = try await body(request)
            do {
                outcome = try await service.ingestNotification(received)
            } catch {
                ServerMetrics.notification(type: "unknown", outcome: "rejected")
                if let refusal = error as? ServiceError { service.recordRefused(received, error: refusal) }
                throw error
            }
            var metadata: Logger.Metadata = ["outcome": "\(outcome.status)"]
            if case .applied(let appUserID) = outcome { metadata["app_user_id"] = "\(appUserID)" }
            context.logger.info("notification received", metadata: metadata)
            return json(Self.notificationAnswer(outcome))
        case .getSubscriber:
            return json(
                try await service.subscriberDocument(
                    appUserID: try userID(context), project: try service.project(bundleID)))
        case .getEligibility:
            let products = (request.uri.queryParameters.get("product_ids") ?? "").split(separator: ",").map(String.init)
            guard !products.isEmpty, products.count <= 100 else {
                throw APIError.badRequest(
                    .invalidProductIDs, "product_ids must list 1–100 comma-separated product ids")
            }
            let result = try await service.eligibility(
                appUserID: try userID(context), bundleID: bundleID, productIDs: products)
            return try json(EligibilityResponse(eligibility: result))
        case .postAlias:
            let body = try await decode(request, as: AliasPost.self)
            return json(
                try await service.alias(
                    appUserID: try userID(context), newAppUserID: try required(body.newAppUserID, "new_app_user_id"),
                    bundleID: bundleID, secretKey: caller?.kind == .secret))
        case .getEvents:
            return try json(try await service.events(appUserID: try userID(context), bundleID: bundleID))
        case .postOfferSignature:
            let body = try await decode(request, as: OfferSignatureRequest.self)
            return try json(
                try await service.signOffer(
                    bundleID: bundleID, productID: try required(body.productID, "product_id"),
                    offerID: try required(body.offerID, "offer_id"), appAccountToken: body.appAccountToken,
                    appUserID: body.appUserID, transactionID: body.transactionID))
        case .postImport:
            let body = try await decode(request, as: ImportPost.self)
            let user = try required(body.appUserID, "app_user_id")
            switch (body.originalTransactionID, body.receipt) {
            case (let original?, nil):
                return json(
                    try await service.importSubscriber(
                        appUserID: user, originalTransactionID: original, bundleID: bundleID))
            case (nil, let receipt?):
                return json(
                    try await service.postReceipt(
                        appUserID: user, receipt: receipt, deviceID: nil, bundleID: bundleID, cause: .imported))
            default:
                throw APIError.badRequest(
                    .invalidField, "give exactly one of original_transaction_id and receipt")
            }
        case .getSubscriberDeliveries:
            return try json(
                try await webhooks.deliveries(
                    appUserID: try userID(context), status: request.uri.queryParameters.get("status"),
                    bundleID: bundleID))
        case .postWebhook:
            let body = try await decode(request, as: WebhookEndpointPost.self)
            return try json(try await webhooks.create(body, bundleID: bundleID), status: .created)
        case .getWebhooks:
            return try json(try await webhooks.list(bundleID: bundleID))
        case .deleteWebhook:
            try await webhooks.delete(id: try userID(context), bundleID: bundleID)
            return Response(status: .noContent)
        case .getWebhookDeliveries:
            return try json(
                try await webhooks.deliveries(
                    endpointID: try userID(context), status: request.uri.queryParameters.get("status"),
                    bundleID: bundleID))
        case .postWebhookTest:
            _ = try await body(request)  // none is expected; a malformed one is refused like any other
            return try json(
                try await webhooks.test(endpointID: try userID(context), bundleID: bundleID), status: .accepted)
        case .postRedeliver:
            _ = try await body(request)
            try await webhooks.redeliver(deliveryID: try userID(context), bundleID: bundleID)
            return Response(status: .accepted)
        case .getMetric:
            let metric = try MetricRequest(
                name: try userID(context), parameter: { request.uri.queryParameters.get($0).map { String($0) } },
                now: service.now())
            let answer = try await service.metric(metric.query, bundleID: bundleID)
            guard metric.csv else { return try json(answer) }
            return Response(
                status: .ok, headers: [.contentType: "text/csv; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: SubscriberService.csv(answer))))
        default:
            throw APIError(.notFound, .notFound, "no handler for \(route)")
        }
    }

    /// The path's `:id` (an app user id, an endpoint id or a delivery id), percent-decoded.
    func userID(_ context: BasicRequestContext) throws -> String {
        let raw = try context.parameters.require("id")
        return raw.removingPercentEncoding ?? raw
    }

    func body(_ request: Request) async throws -> Data {
        do {
            return Data(try await request.body.collect(upTo: maximumBodyBytes).readableBytesView)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw APIError(.contentTooLarge, .bodyTooLarge, "the body exceeds \(maximumBodyBytes) bytes")
        }
    }

    /// The body as `Body`, with only the fields it defines: an unknown one is a typo or a newer client's field
    /// this server would silently ignore, so it is refused by name, as are a missing field and one of the wrong type.
    /// The JSON is parsed once: the field check and the decoding read the same decoder.
    func decode<Body: RequestBody>(_ request: Request, as type: Body.Type) async throws -> Body {
        let data = try await body(request)
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

    /// The answer to a notification: `{"status":"…"}` (a status is one of four plain words, nothing to escape).
    static func notificationAnswer(_ outcome: ApplyOutcome) -> [UInt8] {
        Array(#"{"status":"\#(outcome.status)"}"#.utf8)
    }

    func json(_ bytes: [UInt8]) -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        Response(
            status: status, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: try Self.encoder.encode(value))))
    }
}

/// A request body of the API: its fields are the only ones the endpoint accepts.
protocol RequestBody: Decodable {
    /// The body's wire names.
    associatedtype Fields: CodingKey & CaseIterable
}

extension ReceiptPost: RequestBody { typealias Fields = CodingKeys }
extension TransactionPost: RequestBody { typealias Fields = CodingKeys }
extension AliasPost: RequestBody { typealias Fields = CodingKeys }
extension OfferSignatureRequest: RequestBody { typealias Fields = CodingKeys }
extension WebhookEndpointPost: RequestBody { typealias Fields = CodingKeys }
extension ImportPost: RequestBody { typealias Fields = CodingKeys }

/// A request body decoded strictly: its keys are checked against the body's fields before the body itself is
/// decoded from the same decoder.
struct StrictBody<Body: RequestBody>: Decodable {
    let body: Body

    init(from decoder: any Decoder) throws {
        let fields = Body.Fields.allCases.map(\.stringValue)
        let keys = try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue)
        if let unknown = keys.filter({ !fields.contains($0) }).sorted().first {
            throw UnknownField(name: unknown, expected: fields.sorted())
        }
        body = try Body(from: decoder)
    }

    /// Any key, to list what the object holds.
    struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

/// A request field the endpoint does not define.
struct UnknownField: Error {
    let name: String
    let expected: [String]
}
