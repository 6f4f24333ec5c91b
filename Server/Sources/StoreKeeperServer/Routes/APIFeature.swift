import Hummingbird
import StoreKeeperAPI

/// One feature's room in the API: the routes of ``APIRoute/all`` it answers, each with its handler. Features
/// register into ``APIHandlers``; ``APIRoutes`` authorises each call by its route's access before the handler
/// runs, so a feature never checks keys itself.
protocol APIFeature: Sendable {
    /// Adds this feature's handlers.
    func register(_ handlers: inout APIHandlers)
}

/// The handlers of the API's routes, each route answered by exactly one feature.
struct APIHandlers: Sendable {
    /// What answers a call.
    typealias Handler = @Sendable (APICall) async throws -> Response

    /// Each route's handler.
    private(set) var byRoute: [APIRoute: Handler] = [:]
    /// Routes two features claimed (a mistake ``APIRoutes`` refuses at startup, and a test finds first).
    private(set) var claimedTwice: [APIRoute] = []

    /// The route `endpoint` declares is answered by `handler`.
    mutating func on(_ endpoint: APIEndpoint, _ handler: @escaping Handler) {
        let route = APIRoute(endpoint)
        if byRoute[route] != nil { claimedTwice.append(route) }
        byRoute[route] = handler
    }

    /// The routes of ``APIRoute/all`` no feature answers.
    var unanswered: [APIRoute] { APIRoute.all.filter { byRoute[$0] == nil } }
}
