import AppStoreModels
import AppStoreSimulator
import Foundation
import Hummingbird

/// Apple's endpoints, in Apple's wire formats: verifyReceipt (production at `/verifyReceipt`, sandbox at
/// `/sandbox/verifyReceipt`) and the App Store Server API under `/inApps`, with Apple's JWT check.
struct AppleRoutes: Sendable {
    let simulator: AppStoreSimulator
    let authenticator = ServerAPIAuthenticator()

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.post("verifyReceipt") { request, _ in try await verifyReceipt(request, .production) }
        router.post("sandbox/verifyReceipt") { request, _ in try await verifyReceipt(request, .sandbox) }
        let api = router.group("inApps")
        api.get("v1/subscriptions/:transactionId") { request, context in
            try await authorized(request) { bundleID in
                let filter = Set(request.uri.queryParameters.getAll("status").compactMap { Int(String($0)) })
                return JSONResponse.encode(
                    try await simulator.allSubscriptionStatuses(
                        transactionID: try context.parameters.require("transactionId"), bundleID: bundleID,
                        statusFilter: filter))
            }
        }
        api.get("v1/transactions/:transactionId") { request, context in
            try await authorized(request) { bundleID in
                JSONResponse.encode(
                    try await simulator.transactionInfo(
                        transactionID: try context.parameters.require("transactionId"), bundleID: bundleID))
            }
        }
        // Get Transaction History v1 (deprecated by Apple, still served) answers as v2 does.
        for version in ["v1", "v2"] {
            api.get("\(version)/history/:transactionId") { request, context in
                try await history(request, context)
            }
        }
        api.get("v2/refund/lookup/:transactionId") { request, context in
            try await authorized(request) { bundleID in
                JSONResponse.encode(
                    try await simulator.refundHistory(
                        transactionID: try context.parameters.require("transactionId"), bundleID: bundleID))
            }
        }
        api.get("v1/lookup/:orderId") { request, context in
            try await authorized(request) { bundleID in
                JSONResponse.encode(
                    await simulator.lookUpOrder(orderID: try context.parameters.require("orderId"), bundleID: bundleID))
            }
        }
        api.put("v1/subscriptions/extend/:originalTransactionId") { request, context in
            try await authorized(request) { bundleID in
                let body = try await JSONResponse.decode(ExtendRenewalDateRequest.self, request)
                return JSONResponse.encode(
                    try await simulator.extendRenewalDate(
                        originalTransactionID: try context.parameters.require("originalTransactionId"),
                        bundleID: bundleID, request: body))
            }
        }
        api.post("v1/subscriptions/extend/mass") { request, _ in
            try await authorized(request) { bundleID in
                let body = try await JSONResponse.decode(MassExtendBody.self, request)
                let identifier = try await simulator.massExtendRenewalDate(
                    bundleID: bundleID,
                    request: .init(
                        extendByDays: body.extendByDays, extendReasonCode: body.extendReasonCode,
                        requestIdentifier: body.requestIdentifier, productID: body.productId,
                        storefrontCountryCodes: body.storefrontCountryCodes))
                return JSONResponse.object(["requestIdentifier": identifier])
            }
        }
        api.get("v1/subscriptions/extend/mass/:productId/:requestIdentifier") { request, context in
            try await authorized(request) { bundleID in
                JSONResponse.encode(
                    try await simulator.massExtensionStatus(
                        bundleID: bundleID, productID: try context.parameters.require("productId"),
                        requestIdentifier: try context.parameters.require("requestIdentifier")))
            }
        }
        api.post("v1/notifications/history") { request, _ in
            try await authorized(request) { bundleID in
                let body = try await JSONResponse.decode(NotificationHistoryRequest.self, request)
                return JSONResponse.encode(
                    try await simulator.notificationHistory(
                        bundleID: bundleID, request: body,
                        paginationToken: request.uri.queryParameters.get("paginationToken")))
            }
        }
        api.post("v1/notifications/test") { request, _ in
            try await authorized(request) { bundleID in
                var response = SendTestNotificationResponse()
                response.testNotificationToken = try await simulator.requestTestNotification(bundleID: bundleID)
                return JSONResponse.encode(response)
            }
        }
        api.get("v1/notifications/test/:token") { request, context in
            try await authorized(request) { bundleID in
                JSONResponse.encode(
                    try await simulator.testNotificationStatus(
                        token: try context.parameters.require("token"), bundleID: bundleID))
            }
        }
        // Send Consumption Information, v1 and v2 (the body is kept as sent).
        for version in ["v1", "v2"] {
            api.put("\(version)/transactions/consumption/:transactionId") { request, context in
                try await authorized(request) { bundleID in
                    try await simulator.sendConsumptionInformation(
                        transactionID: try context.parameters.require("transactionId"), bundleID: bundleID,
                        body: try await JSONResponse.body(request), version: version == "v2" ? 2 : 1)
                    return Response(status: .accepted)
                }
            }
        }
        // (Hummingbird needs one parameter name per path position: `transactionId` is the original one here.)
        api.put("v1/transactions/:transactionId/appAccountToken") { request, context in
            try await authorized(request) { bundleID in
                let body =
                    try? JSONSerialization.jsonObject(with: try await JSONResponse.body(request)) as? [String: Any]
                try await simulator.setAppAccountToken(
                    originalTransactionID: try context.parameters.require("transactionId"), bundleID: bundleID,
                    token: body?["appAccountToken"] as? String)
                return Response(status: .ok)
            }
        }
        api.get("v1/transactions/appTransactions/:transactionId") { request, context in
            try await authorized(request) { bundleID in
                JSONResponse.object([
                    "signedAppTransactionInfo": try await simulator.appTransactionInfo(
                        transactionID: try context.parameters.require("transactionId"), bundleID: bundleID)
                ])
            }
        }
        addRetentionRoutes(to: api)
        api.post("v1/transactions/:transactionId/finish") { request, context in
            try await authorized(request) { bundleID in
                try await simulator.finishTransaction(
                    transactionID: try context.parameters.require("transactionId"), bundleID: bundleID)
                return Response(status: .ok)
            }
        }
    }

    /// The body of Extend Subscription Renewal Dates for All Active Subscribers.
    struct MassExtendBody: Decodable {
        var extendByDays: Int?
        var extendReasonCode: Int?
        var requestIdentifier: String?
        var storefrontCountryCodes: [String]?
        var productId: String?
    }

    /// Get Transaction History (v1 and v2).
    func history(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        try await authorized(request) { bundleID in
            JSONResponse.encode(
                try await simulator.transactionHistory(
                    transactionID: try context.parameters.require("transactionId"), bundleID: bundleID,
                    revision: request.uri.queryParameters.get("revision"),
                    descending: request.uri.queryParameters.get("sort") == "DESCENDING"))
        }
    }

    func verifyReceipt(_ request: Request, _ endpoint: AppStoreSimulator.ReceiptEndpoint) async throws -> Response {
        let body = (try? await JSONResponse.body(request, limit: 8 << 20)) ?? Data()
        return JSONResponse.make(await simulator.verifyReceipt(body: body, endpoint: endpoint))
    }

    /// Runs `body` for the app the bearer token authenticates; Apple's error body otherwise.
    func authorized(_ request: Request, _ body: (String) async throws -> Response) async throws -> Response {
        do {
            let app = try authenticator.authenticate(
                request.headers[.authorization], apps: await simulator.allApps(), now: Date())
            await simulator.recordServerAPIRequest(method: request.method.rawValue, path: request.uri.path)
            if let retryAt = await simulator.admitServerAPIRequest(
                bundleID: app.bundleID, method: request.method.rawValue, path: request.uri.path)
            {
                var payload = APIErrorResponse()
                payload.errorCode = 4_290_000
                payload.errorMessage = "Rate limit exceeded."
                var response = JSONResponse.encode(payload, status: .tooManyRequests)
                response.headers[.retryAfter] = String(retryAt)
                return response
            }
            return try await body(app.bundleID)
        } catch let error as AppStoreAPIError {
            var payload = APIErrorResponse()
            payload.errorCode = error.errorCode
            payload.errorMessage = error.errorMessage
            return JSONResponse.encode(payload, status: .init(code: error.httpStatus))
        } catch let error as SimulatorError {
            return JSONResponse.error(error.code, error.reason, status: JSONResponse.status(error))
        }
    }
}
