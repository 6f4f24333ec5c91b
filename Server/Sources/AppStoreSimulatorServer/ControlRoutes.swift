import AppStoreSimulator
import AppStoreVerification
import Foundation
import Hummingbird

/// The simulator's control API under `/simulator/v1`: JSON verbs that make things happen (purchase, advance
/// the clock, refund, fail billing…). Errors are `{"error": {"code", "message"}}`.
struct ControlRoutes: Sendable {
    let simulator: AppStoreSimulator
    let manualClock: ManualClock?

    struct PurchaseBody: Decodable {
        var bundleID: String
        var productID: String
        var customerID: String
        var offer: String?
        var offerID: String?
        var appAccountToken: String?
        var familyShared: Bool?
        var storefront: String?
        var offerSignature: OfferSignatureBody?
        var offerJWS: String?
        /// `BILLED_UPFRONT` or `MONTHLY` (the product's commitment plan).
        var billingPlan: String?
        /// The original transaction id of a subscription this purchase replaces.
        var replacing: String?
    }

    /// A promotional offer's signature fields, as StoreKit passes them.
    struct OfferSignatureBody: Decodable {
        var keyID: String
        var nonce: String
        var timestamp: Int64
        var signature: String
    }

    struct AdvanceBody: Decodable {
        var seconds: Double?
        var months: Double?
    }

    func addRoutes(to router: Router<BasicRequestContext>) {
        let control = router.group("simulator/v1")
        control.post("apps") { request, _ in
            try await handle {
                let app = try await JSONResponse.decode(SimulatedApp.self, request)
                let key = try await simulator.createApp(app)
                var object: [String: Any] = ["bundleID": app.bundleID]
                if let key { object["apiPrivateKeyPEM"] = key }
                return JSONResponse.object(object, status: .created)
            }
        }
        control.get("apps") { _, _ in
            JSONResponse.object([
                "apps": await simulator.allApps().map {
                    ["bundleID": $0.bundleID, "products": $0.products.map(\.productID)]
                }
            ])
        }
        control.post("purchases") { request, _ in
            try await handle {
                let body = try await JSONResponse.decode(PurchaseBody.self, request)
                var options = PurchaseOptions(
                    appAccountToken: body.appAccountToken, familyShared: body.familyShared ?? false,
                    storefront: body.storefront ?? "USA")
                options.billingPlan = body.billingPlan
                options.replacing = body.replacing
                switch body.offer {
                case nil: break
                case "introductory": options.offer = .introductory
                case "promotional": options.offer = .promotional(body.offerID ?? "")
                case "offerCode": options.offer = .offerCode(body.offerID ?? "")
                case "winBack": options.offer = .winBack(body.offerID ?? "")
                case let other?:
                    throw SimulatorError(
                        .invalidOffer, "offer \"\(other)\" must be introductory, promotional, offerCode or winBack")
                }
                if let jws = body.offerJWS {
                    options.offerProof = .jws(jws)
                } else if let given = body.offerSignature {
                    options.offerProof = .signature(
                        keyID: given.keyID, nonce: given.nonce, timestamp: given.timestamp, signature: given.signature)
                }
                let transaction = try await simulator.purchase(
                    bundleID: body.bundleID, productID: body.productID, customerID: body.customerID, options: options)
                var object = Self.describe(transaction)
                // What StoreKit hands the app after a purchase: the signed transaction it sends its server.
                object["signedTransaction"] = await simulator.deviceTransaction(transaction.transactionID)?
                    .signedTransaction
                return JSONResponse.object(object, status: .created)
            }
        }
        control.get("clock") { _, _ in
            JSONResponse.object([
                "now": ISO8601DateFormatter().string(from: simulator.clock.now()), "manual": manualClock != nil,
                "environment": simulator.configuration.environment,
                "secondsPerDay": simulator.configuration.rate.seconds(forDays: 1),
            ])
        }

        control.post("clock/advance") { request, _ in
            try await handle {
                guard let manualClock else {
                    throw SimulatorError(
                        .clockNotManual, "this simulator runs on the system clock; start it with --clock manual",
                        kind: .conflict)
                }
                let body = try await JSONResponse.decode(AdvanceBody.self, request)
                let seconds =
                    (body.seconds ?? 0) + (body.months ?? 0) * simulator.configuration.rate.seconds(for: .month)
                guard seconds.isFinite, seconds >= 0, seconds <= 100 * 365 * 86_400 else {
                    throw SimulatorError(.invalidDuration, "advance by \(seconds) seconds is out of range")
                }
                manualClock.advance(by: seconds)
                await simulator.advance()
                return JSONResponse.object(["now": ISO8601DateFormatter().string(from: manualClock.now())])
            }
        }
        control.get("subscriptions/:id") { _, context in
            try await handle {
                let id = try context.parameters.require("id")
                guard let subscription = await simulator.subscription(id) else {
                    throw SimulatorError(.notFound, "subscription \(id) does not exist", kind: .notFound)
                }
                return JSONResponse.object(Self.describe(subscription))
            }
        }
        control.get("transactions/:id") { _, context in
            try await handle {
                let id = try context.parameters.require("id")
                guard let transaction = await transactionObject(id) else {
                    throw SimulatorError(.notFound, "transaction \(id) does not exist", kind: .notFound)
                }
                return JSONResponse.object(transaction)
            }
        }
        subscriptionVerb(control, "auto-renew") { id, body in
            try await simulator.setAutoRenew(
                originalTransactionID: id, enabled: try body.required("enabled", Bool.self))
        }
        subscriptionVerb(control, "fail-next-renewal") { id, _ in
            try await simulator.failNextRenewal(originalTransactionID: id)
        }
        subscriptionVerb(control, "recover") { id, _ in try await simulator.recoverBilling(originalTransactionID: id) }
        subscriptionVerb(control, "change-plan") { id, body in
            try await simulator.changePlan(originalTransactionID: id, to: try body.required("productID", String.self))
        }
        subscriptionVerb(control, "extend") { id, body in
            try await simulator.extendRenewalDate(originalTransactionID: id, days: try body.required("days", Int.self))
        }
        subscriptionVerb(control, "price-increase-response") { id, body in
            try await simulator.respondToPriceIncrease(
                originalTransactionID: id, accept: try body.required("accept", Bool.self))
        }
        transactionVerb(control, "refund") { id, body in
            try await simulator.refund(
                transactionID: id, reason: try body.optional("reason", Int.self) ?? 0,
                proratedPercentage: try body.optional("proratedPercentage", Int.self))
        }
        transactionVerb(control, "reverse-refund") { id, _ in try await simulator.reverseRefund(transactionID: id) }
        transactionVerb(control, "revoke-family") { id, _ in try await simulator.revokeFamilySharing(transactionID: id)
        }
        transactionVerb(control, "consumption-request") { id, body in
            try await simulator.requestConsumption(
                transactionID: id, reason: try body.optional("reason", String.self) ?? "UNINTENDED_PURCHASE")
        }
        addRetentionRoutes(to: control)
        addRateLimitRoutes(to: control)
        addLedgerRoutes(to: control)
        addRefundDeskRoutes(to: control)
        control.post("apps/:bundleID/price-increase") { request, context in
            try await handle {
                let body = try await Self.object(request)
                try await simulator.increasePrice(
                    bundleID: try context.parameters.require("bundleID"),
                    productID: try body.required("productID", String.self),
                    newPrice: try body.required("newPrice", Int64.self),
                    requiresConsent: try body.optional("requiresConsent", Bool.self) ?? true)
                return JSONResponse.object(["ok": true])
            }
        }
        control.post("apps/:bundleID/delivery") { request, context in
            try await handle {
                let body = try await Self.object(request)
                let raw = try body.required("mode", String.self)
                guard let mode = SimulatedApp.NotificationDelivery(rawValue: raw) else {
                    throw SimulatorError(.invalidField, "mode is \"\(raw.prefix(40))\"; it must be deliver or drop")
                }
                let bundleID = try context.parameters.require("bundleID")
                try await simulator.setNotificationDelivery(bundleID: bundleID, mode)
                return JSONResponse.object(["bundleID": bundleID, "mode": mode.rawValue])
            }
        }
        control.post("apps/:bundleID/rescind-consent") { request, context in
            try await handle {
                let body = try await Self.object(request)
                try await simulator.rescindConsent(
                    bundleID: try context.parameters.require("bundleID"),
                    customerID: try body.required("customerID", String.self))
                return JSONResponse.object(["ok": true])
            }
        }
        control.get("apps/:bundleID/receipt") { request, context in
            try await handle {
                guard let customer = request.uri.queryParameters.get("customerID") else {
                    throw SimulatorError(.missingCustomer, "query parameter customerID is required")
                }
                let receipt = try await simulator.receipt(
                    bundleID: try context.parameters.require("bundleID"), customerID: customer)
                return JSONResponse.object(["receipt": receipt])
            }
        }
        control.get("apps/:bundleID/products") { request, context in
            try await handle {
                let bundleID = try context.parameters.require("bundleID")
                guard let app = await simulator.app(bundleID) else {
                    throw SimulatorError(.notFound, "app \(bundleID) does not exist", kind: .notFound)
                }
                let storefront = request.uri.queryParameters.get("storefront") ?? "USA"
                return JSONResponse.object([
                    "products": app.products.map { Self.describe($0, storefront: String(storefront)) }
                ])
            }
        }
        control.get("apps/:bundleID/device-transactions") { request, context in
            try await handle {
                guard let customer = request.uri.queryParameters.get("customerID") else {
                    throw SimulatorError(.missingCustomer, "query parameter customerID is required")
                }
                let list = try await simulator.deviceTransactions(
                    bundleID: try context.parameters.require("bundleID"), customerID: String(customer))
                return JSONResponse.object([
                    "transactions": list.map { device -> [String: Any] in
                        var object = Self.describe(device.transaction)
                        object["signedTransaction"] = device.signedTransaction
                        object["finished"] = device.finished
                        return object
                    }
                ])
            }
        }
        transactionVerb(control, "finish") { id, _ in try await simulator.finishOnDevice(transactionID: id) }
        control.get("apps/:bundleID/api-token") { _, context in
            try await handle {
                JSONResponse.object([
                    "token": try await simulator.apiToken(bundleID: try context.parameters.require("bundleID"))
                ])
            }
        }
        control.get("requests") { _, _ in
            let log = await simulator.serverAPIRequests
            return JSONResponse.object(["serverAPI": log.counts, "overflow": log.overflow])
        }
        control.get("deliveries") { _, _ in
            // pending: every notification with an attempt still scheduled; due: those whose attempt is due now.
            let (due, scheduled) = await simulator.deliveryBacklog()
            return JSONResponse.object(["pending": scheduled, "due": due])
        }
        control.get("apps/:bundleID/notifications") { _, context in
            let bundleID = try context.parameters.require("bundleID")
            let list = await simulator.notifications(for: bundleID).map { record -> [String: Any] in
                [
                    "notificationUUID": record.notificationUUID, "notificationType": record.notificationType,
                    "subtype": record.subtype ?? NSNull(), "signedPayload": record.signedPayload,
                    "signedDate": ISO8601DateFormatter().string(from: record.signedDate),
                    "attempts": record.attempts.map {
                        ["date": ISO8601DateFormatter().string(from: $0.date), "result": $0.result]
                    },
                ]
            }
            return JSONResponse.object(["notifications": list])
        }
        control.get("pki/:name") { _, context in
            let name = try context.parameters.require("name")
            let pki = simulator.pki
            let der: [UInt8]
            switch name {
            case "jws-root.der": der = pki.signedDataRootDER
            case "receipt-root.der": der = pki.receiptRootDER
            default: return JSONResponse.error(.notFound, "no certificate \(name)", status: .notFound)
            }
            return Response(
                status: .ok, headers: [.contentType: "application/pkix-cert"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: der)))
        }
    }

    func subscriptionVerb(
        _ group: RouterGroup<BasicRequestContext>, _ verb: String,
        _ action: @escaping @Sendable (String, ControlBody) async throws -> some Any
    ) {
        group.post("subscriptions/:id/\(verb)") { request, context in
            try await handle {
                let id = try context.parameters.require("id")
                _ = try await action(id, try await Self.object(request))
                guard let subscription = await simulator.subscription(id) else { return JSONResponse.object([:]) }
                return JSONResponse.object(Self.describe(subscription))
            }
        }
    }

    func transactionVerb(
        _ group: RouterGroup<BasicRequestContext>, _ verb: String,
        _ action: @escaping @Sendable (String, ControlBody) async throws -> Void
    ) {
        group.post("transactions/:id/\(verb)") { request, context in
            try await handle {
                let id = try context.parameters.require("id")
                try await action(id, try await Self.object(request))
                return JSONResponse.object(await transactionObject(id) ?? [:])
            }
        }
    }

    /// The request's JSON body (an empty body is an empty object).
    static func object(_ request: Request) async throws -> ControlBody {
        let data = try await JSONResponse.body(request)
        if data.isEmpty { return ControlBody(object: .object([])) }
        guard let object = try? JSONValue.parse(data), case .object = object else {
            throw SimulatorError(.invalidJson, "the body is not a JSON object")
        }
        return ControlBody(object: object)
    }

    func handle(_ body: () async throws -> Response) async throws -> Response {
        do {
            return try await body()
        } catch let error as SimulatorError {
            return JSONResponse.error(error.code, error.reason, status: JSONResponse.status(error))
        } catch let error as HTTPError {
            return JSONResponse.error(.badRequest, error.body ?? "bad request", status: error.status)
        }
    }

    static func describe(_ t: SimulatedTransaction) -> [String: Any] {
        let iso = ISO8601DateFormatter()
        var object: [String: Any] = [
            "transactionId": t.transactionID, "originalTransactionId": t.originalTransactionID,
            "productId": t.productID,
            "customerID": t.customerID, "purchaseDate": iso.string(from: t.purchaseDate), "price": t.price,
            "orderId": t.orderID, "type": t.type,
        ]
        if let expires = t.expiresDate { object["expiresDate"] = iso.string(from: expires) }
        if let revoked = t.revocationDate { object["revocationDate"] = iso.string(from: revoked) }
        if let offerType = t.offerType { object["offerType"] = offerType }
        if let offer = t.offerIdentifier { object["offerIdentifier"] = offer }
        return object
    }

    /// A product as StoreKit shows it on a device in `storefront`: price in milliunits and as text, period, and the
    /// introductory offer.
    static func describe(_ p: SimulatedProduct, storefront: String) -> [String: Any] {
        let currency = storefront == "JPN" ? "JPY" : "USD"
        var object: [String: Any] = [
            "productId": p.productID, "type": p.kind.rawValue, "currency": currency,
            "price": p.prices[storefront] ?? p.prices.values.first ?? 0,
        ]
        if let group = p.subscriptionGroupID { object["subscriptionGroupId"] = group }
        if let period = p.period { object["period"] = period.rawValue }
        if let intro = p.introductoryOffer {
            object["introductoryOffer"] = [
                "discountType": intro.discountType, "period": intro.period.rawValue, "periods": intro.periods,
                "price": intro.price,
            ]
        }
        return object
    }

    static func describe(_ s: SimulatedSubscription) -> [String: Any] {
        let iso = ISO8601DateFormatter()
        var object: [String: Any] = [
            "originalTransactionId": s.originalTransactionID, "productId": s.productID,
            "autoRenewProductId": s.autoRenewProductID, "autoRenewStatus": s.autoRenewEnabled,
            "status": s.status.rawValue,
            "latestTransactionId": s.latestTransactionID, "expiresDate": iso.string(from: s.periodEnd),
            "renewalCount": s.renewalCount,
        ]
        if let grace = s.graceEndsAt { object["gracePeriodExpiresDate"] = iso.string(from: grace) }
        if let offer = s.pendingPromotionalOfferID { object["pendingOfferIdentifier"] = offer }
        return object
    }
}
