import Foundation
import Hummingbird
import StoreKeeperStorage

/// The `/v1` HTTP API: each feature's room registers its handlers (``APIFeature``), and this type puts them on
/// the router behind the access check of their ``APIRoute``.
struct APIRoutes: Sendable {
    let features: [any APIFeature]
    let authenticator: Authenticator
    let maximumBodyBytes: Int

    /// The API's features over the server's services: intake, subscribers, offers, webhooks and metrics.
    init(features: [any APIFeature], authenticator: Authenticator, maximumBodyBytes: Int) {
        self.features = features
        self.authenticator = authenticator
        self.maximumBodyBytes = maximumBodyBytes
    }

    /// Every feature's handlers, each route answered once.
    var handlers: APIHandlers {
        var handlers = APIHandlers()
        for feature in features { feature.register(&handlers) }
        return handlers
    }

    /// Registers every route of ``APIRoute/all``: the caller is authorised by the route's access before its
    /// handler runs, and every handler acts inside the caller's project. A route no feature answers, or two do,
    /// stops the server at startup (naming it) rather than answering wrongly.
    func addRoutes(to router: Router<BasicRequestContext>) {
        let handlers = handlers
        precondition(handlers.unanswered.isEmpty, "no feature answers \(handlers.unanswered)")
        precondition(handlers.claimedTwice.isEmpty, "two features answer \(handlers.claimedTwice)")
        for route in APIRoute.all {
            guard let handler = handlers.byRoute[route] else { continue }
            router.on(RouterPath(route.path), method: route.method) { request, context in
                let caller: APIKeyRecord? =
                    switch route.access {
                    case .apple: nil
                    case .publicKey: try await authenticator.authorize(request, needs: nil)
                    case .secretKey(let scope): try await authenticator.authorize(request, needs: scope)
                    }
                return try await handler(
                    APICall(request: request, context: context, caller: caller, maximumBodyBytes: maximumBodyBytes))
            }
        }
    }
}
