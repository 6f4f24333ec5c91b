import Foundation
import Hummingbird
import StoreKeeperStorage

/// The `/v1` HTTP API.
struct APIRoutes: Sendable {
    let service: SubscriberService
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
                return try await handle(route, request, context, bundleID: caller?.bundleID ?? "")
            }
        }
    }

    /// Runs one route's handler; `bundleID` is the caller's app (empty for Apple's routes).
    func handle(_ route: APIRoute, _ request: Request, _ context: BasicRequestContext, bundleID: String) async throws
        -> Response
    {
        switch route {
        case .postReceipt:
            let body = try await object(request, fields: ["app_user_id", "receipt", "device_id"])
            return json(
                try await service.postReceipt(
                    appUserID: try field(body, "app_user_id"), receipt: try field(body, "receipt"),
                    deviceID: try optionalField(body, "device_id"),
                    bundleID: bundleID))
        case .postTransaction:
            let body = try await object(request, fields: ["app_user_id", "signed_transaction"])
            return json(
                try await service.postTransaction(
                    appUserID: try field(body, "app_user_id"), signedTransaction: try field(body, "signed_transaction"),
                    bundleID: bundleID))
        case .postNotification:
            return json(Self.notificationAnswer(try await service.ingestNotification(try await body(request))))
        case .getSubscriber:
            return json(
                try await service.subscriberDocument(
                    appUserID: try userID(context), project: try service.project(bundleID)))
        case .getEligibility:
            let products = (request.uri.queryParameters.get("product_ids") ?? "").split(separator: ",").map(String.init)
            guard !products.isEmpty, products.count <= 100 else {
                throw APIError.badRequest(
                    "invalid_product_ids", "product_ids must list 1–100 comma-separated product ids")
            }
            let result = try await service.eligibility(
                appUserID: try userID(context), bundleID: bundleID, productIDs: products)
            return json(["eligibility": result])
        case .postAlias:
            let body = try await object(request, fields: ["new_app_user_id"])
            return json(
                try await service.alias(
                    appUserID: try userID(context), newAppUserID: try field(body, "new_app_user_id"), bundleID: bundleID
                ))
        case .getEvents:
            return json(["events": try await service.events(appUserID: try userID(context), bundleID: bundleID)])
        case .postOfferSignature:
            let body = try await object(request, fields: ["product_id", "offer_id", "app_account_token"])
            return json(
                try service.signOffer(
                    bundleID: bundleID, productID: try field(body, "product_id"), offerID: try field(body, "offer_id"),
                    appAccountToken: try optionalField(body, "app_account_token")))
        default:
            throw APIError(.notFound, "not_found", "no handler for \(route)")
        }
    }

    func userID(_ context: BasicRequestContext) throws -> String {
        let raw = try context.parameters.require("id")
        return raw.removingPercentEncoding ?? raw
    }

    func body(_ request: Request) async throws -> Data {
        do {
            return Data(try await request.body.collect(upTo: maximumBodyBytes).readableBytesView)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw APIError(.contentTooLarge, "body_too_large", "the body exceeds \(maximumBodyBytes) bytes")
        }
    }

    /// The body as a JSON object with only the documented `fields` (an unknown one is a typo or a newer
    /// client's field this server would silently ignore: refused, naming it).
    func object(_ request: Request, fields: Set<String>) async throws -> [String: Any] {
        let data = try await body(request)
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw APIError.badRequest("invalid_json", "the body is not a JSON object")
        }
        if let unknown = object.keys.filter({ !fields.contains($0) }).sorted().first {
            throw APIError.badRequest(
                "unknown_field",
                "unknown field \"\(unknown.prefix(100))\"; expected \(fields.sorted().joined(separator: ", "))")
        }
        return object
    }

    func field(_ object: [String: Any], _ name: String) throws -> String {
        guard let value = object[name] as? String, !value.isEmpty else {
            throw APIError.badRequest("missing_field", "\(name) is required and must be a non-empty string")
        }
        return value
    }

    func optionalField(_ object: [String: Any], _ name: String) throws -> String? {
        guard let value = object[name] else { return nil }
        guard let text = value as? String else {
            throw APIError.badRequest("invalid_field", "\(name) must be a string")
        }
        return text
    }

    /// The answer to a notification: `{"status":"…"}` (a status is one of four plain words, nothing to escape).
    static func notificationAnswer(_ outcome: ApplyOutcome) -> [UInt8] {
        Array(#"{"status":"\#(outcome.status)"}"#.utf8)
    }

    func json(_ bytes: [UInt8]) -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    func json(_ object: Any) -> Response {
        let data =
            (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data("{}".utf8)
        return Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
