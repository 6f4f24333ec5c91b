import Hummingbird
import StoreKeeperAPI

/// What is known of a customer: the subscriber document, introductory offer eligibility, identity merges and
/// the history of events.
struct SubscriberRoutes: APIFeature {
    let service: SubscriberService
    /// The project's customers, filtered (`GET /v1/subscribers`).
    let list: SubscriberList

    func register(_ handlers: inout APIHandlers) {
        handlers.on(.getSubscriber) { call in
            call.json(
                try await service.subscriberDocument(
                    appUserID: try call.parameter(.appUserID), project: try service.apps.project(call.bundleID),
                    personal: call.isSecret))
        }
        handlers.on(.getEligibility) { call in
            let products = (call.query("product_ids") ?? "").split(separator: ",").map(String.init)
            guard !products.isEmpty, products.count <= 100 else {
                throw APIError.badRequest(.invalidProductIDs, "product_ids must list 1–100 comma-separated product ids")
            }
            let result = try await service.eligibility(
                appUserID: try call.parameter(.appUserID), bundleID: call.bundleID, productIDs: products)
            return try call.json(EligibilityResponse(eligibility: result))
        }
        handlers.on(.postAlias) { call in
            let body = try await call.decode(AliasPost.self)
            return call.json(
                try await service.alias(
                    appUserID: try call.parameter(.appUserID),
                    newAppUserID: try call.required(body.newAppUserID, "new_app_user_id"),
                    bundleID: call.bundleID, authority: call.mergeAuthority))
        }
        handlers.on(.getSubscribers) { call in
            let filter = try SubscriberList.Filter(call.query)
            switch call.query("format") {
            case nil, "json":
                let count = try PageLimit.parse(
                    call.query("limit"), maximum: SubscriberList.maximumLimit, default: SubscriberList.defaultLimit)
                return try call.json(
                    try await list.page(
                        filter: filter, cursor: call.query("cursor"), count: count, bundleID: call.bundleID))
            case "csv":
                return Response(
                    status: .ok, headers: [.contentType: "text/csv; charset=utf-8"],
                    body: try await list.csv(filter: filter, cursor: call.query("cursor"), bundleID: call.bundleID))
            case let other?:
                throw APIError.badRequest(.invalidParameter, "format=\"\(other.prefix(64))\": expected json or csv")
            }
        }
        handlers.on(.getEvents) { call in
            try call.json(try await service.events(appUserID: try call.parameter(.appUserID), bundleID: call.bundleID))
        }
    }
}
