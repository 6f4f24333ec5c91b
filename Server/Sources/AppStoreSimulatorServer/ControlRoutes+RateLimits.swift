import AppStoreSimulator
import Foundation
import Hummingbird

/// `PUT /simulator/v1/rate-limits {"endpoint", "requests"?, "seconds"?}`: gives a Server API endpoint (Apple's
/// name, e.g. `Get All Subscription Statuses`) a smaller budget of requests per window, so a test meets Apple's
/// 429 and its `Retry-After` in seconds instead of an hour; without `requests`, Apple's limit again.
extension ControlRoutes {
    func addRateLimitRoutes(to control: RouterGroup<BasicRequestContext>) {
        control.put("rate-limits") { request, _ in
            try await handle {
                let body = try await Self.object(request)
                let endpoint = try body.required("endpoint", String.self)
                let seconds = try body.optional("seconds", Int.self) ?? 3_600
                let budget = try body.optional("requests", Int.self).map {
                    ServerAPIRateLimits.Budget(requests: $0, seconds: Double(seconds))
                }
                try await simulator.setRateLimit(endpoint, budget)
                var answer: [String: Any] = ["endpoint": endpoint]
                if let budget {
                    answer["requests"] = budget.requests
                    answer["seconds"] = budget.seconds
                }
                return JSONResponse.object(answer)
            }
        }
    }
}
