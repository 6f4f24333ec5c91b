import StoreKeeperAPI

/// The support desk's room: finding a customer (`GET /v1/search`, any secret key), giving or taking back access
/// without a purchase (grants, a `support` key), a renewal date or an app account token changed by Apple (a
/// `support` key), and a customer's data exported or erased (a `support` key).
struct SupportRoutes: APIFeature {
    let search: CustomerSearch
    let grants: SupportGrants
    let extensions: SupportExtensions
    let tokens: SupportAppAccountTokens
    let massExtensions: MassExtensions
    let data: CustomerData

    func register(_ handlers: inout APIHandlers) {
        handlers.on(.getSearch) { call in
            try call.json(try await search.search(call.query("q"), bundleID: call.bundleID))
        }
        handlers.on(.postGrant) { call in
            let body = try await call.decode(GrantPost.self)
            let grant = try await grants.grant(
                body, appUserID: try call.parameter(.appUserID), entitlement: try call.parameter(.entitlement),
                bundleID: call.bundleID)
            return try call.json(grant, status: .created)
        }
        handlers.on(.deleteGrant) { call in
            try call.json(
                try await grants.revoke(
                    appUserID: try call.parameter(.appUserID), entitlement: try call.parameter(.entitlement),
                    bundleID: call.bundleID))
        }
        handlers.on(.postExtension) { call in
            let body = try await call.decode(ExtensionPost.self)
            return try call.json(
                try await extensions.extend(
                    body, appUserID: try call.parameter(.appUserID),
                    originalTransactionID: try call.parameter(.originalTransactionID), bundleID: call.bundleID))
        }
        handlers.on(.postAppAccountToken) { call in
            let body = try await call.decode(AppAccountTokenPost.self)
            return try call.json(
                try await tokens.set(
                    body, appUserID: try call.parameter(.appUserID),
                    originalTransactionID: try call.parameter(.originalTransactionID), bundleID: call.bundleID))
        }
        handlers.on(.postMassExtension) { call in
            let body = try await call.decode(MassExtensionPost.self)
            return try call.json(try await massExtensions.request(body, bundleID: call.bundleID), status: .accepted)
        }
        handlers.on(.getMassExtension) { call in
            try call.json(
                try await massExtensions.status(try call.parameter(.massExtensionID), bundleID: call.bundleID))
        }
        handlers.on(.getExport) { call in
            try call.json(try await data.export(appUserID: try call.parameter(.appUserID), bundleID: call.bundleID))
        }
        handlers.on(.deleteSubscriber) { call in
            try call.json(try await data.erase(appUserID: try call.parameter(.appUserID), bundleID: call.bundleID))
        }
    }
}
