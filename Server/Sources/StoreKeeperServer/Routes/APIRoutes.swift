import Foundation
import Hummingbird
import StoreKeeperStorage

/// The `/v1` HTTP API: each feature's room registers its handlers (``APIFeature``), and this type puts them on
/// the router behind the access check of their ``APIRoute``.
struct APIRoutes: Sendable {
    let features: [any APIFeature]
    let authenticator: Authenticator
    let maximumBodyBytes: Int
    /// The apps and their projects (an audited change is logged in its caller's project).
    let apps: AppDirectory
    /// The server's clock (when an audited change was asked for).
    let now: @Sendable () -> Date

    /// The API's features over the server's services: intake, subscribers, offers, webhooks and metrics.
    init(
        features: [any APIFeature], authenticator: Authenticator, maximumBodyBytes: Int, apps: AppDirectory,
        now: @escaping @Sendable () -> Date
    ) {
        self.features = features
        self.authenticator = authenticator
        self.maximumBodyBytes = maximumBodyBytes
        self.apps = apps
        self.now = now
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
                let call = APICall(
                    request: request, context: context, caller: caller, maximumBodyBytes: maximumBodyBytes)
                guard let trail = try auditTrail(route, call) else { return try await handler(call) }
                return try await AuditTrail.$current.withValue(trail) { try await handler(call) }
            }
        }
    }

    /// The audit trail of a call that changes something with a secret key (``AuditNote``); `nil` for any other.
    func auditTrail(_ route: APIRoute, _ call: APICall) throws -> AuditTrail? {
        guard AuditNote.isAudited(route), let caller = call.caller,
            let bearer = call.request.headers[.authorization]?.dropFirst(7)
        else { return nil }
        let project = try apps.project(caller.bundleID)
        let parameters = try route.endpoint.parameters.map { (name: $0, value: try call.parameter(named: $0)) }
        return AuditTrail(
            AuditEntry(
                project: project.id, at: now(), actor: AuditNote.actor(keyHash: Authenticator.hash(String(bearer))),
                address: call.request.headers[AuditNote.peerAddress], route: route.description,
                target: AuditNote.target(route, parameters: parameters, in: project), summary: ""))
    }
}
