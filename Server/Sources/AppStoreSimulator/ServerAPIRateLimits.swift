public import Foundation

/// Apple's published rate limits of the App Store Server API and the Retention Messaging API (each its
/// "Identifying rate limits"): requests per second per app and endpoint in production, enforced over each hour,
/// and 10 % of that in the sandbox. A request over the
/// limit is answered HTTP 429 `RateLimitExceededError` (4290000) with a `Retry-After` header holding the UNIX time,
/// in milliseconds, from which the endpoint answers again. A test may give an endpoint a smaller budget over a
/// shorter window (``Budget``).
public struct ServerAPIRateLimits: Sendable {
    /// How many requests an endpoint takes per window.
    public struct Budget: Sendable, Hashable, Codable {
        /// Requests per window.
        public var requests: Int
        /// The window's length in seconds (windows are aligned to the UNIX epoch).
        public var seconds: Double

        /// Makes a budget.
        public init(requests: Int, seconds: Double) {
            self.requests = requests
            self.seconds = seconds
        }
    }

    /// Production requests per second of each endpoint, by the endpoint's name in Apple's documentation.
    public static let perSecond: [String: Int] = [
        "Finish Transaction": 50, "Get App Transaction Info": 50, "Get Transaction Info": 50,
        "Get Transaction History": 50, "Get All Subscription Statuses": 50, "Send Consumption Information": 50,
        "Get Notification History": 50, "Extend a Subscription Renewal Date": 20, "Set App Account Token": 20,
        "Look Up Order ID": 10, "Get Refund History": 10,
        "Extend Subscription Renewal Dates for All Active Subscribers": 1, "Request a Test Notification": 1,
        "Get Test Notification Status": 1,
        // The Retention Messaging API's table (its own "Identifying rate limits").
        "Configure Default Message": 10, "Configure Realtime Url": 1, "Delete Default Message": 1,
        "Delete Image": 1, "Delete Message": 1, "Delete Realtime Url": 1, "Get Default Message": 1,
        "Get Image List": 1, "Get Message List": 1, "Get Performance Test Results": 1, "Get Realtime Url": 1,
        "Initiate Performance Test": 1, "Upload Image": 1, "Upload Message": 1,
    ]

    /// The endpoint a request is for, by Apple's name, or `nil` for one without a published limit (the
    /// mass-extension status).
    public static func endpoint(method: String, path: String) -> String? {
        let parts = path.split(separator: "/").map(String.init)
        guard parts.count >= 3, parts[0] == "inApps" else { return nil }
        let rest = Array(parts.dropFirst(2))
        if rest.first == "messaging", rest.count >= 2 { return messagingEndpoint(method: method, rest[1]) }
        switch (method, rest.first ?? "") {
        case ("GET", "subscriptions"): return "Get All Subscription Statuses"
        case ("GET", "history"): return "Get Transaction History"
        case ("GET", "refund"): return "Get Refund History"
        case ("GET", "lookup"): return "Look Up Order ID"
        case ("PUT", "subscriptions") where rest.count == 3 && rest[1] == "extend":
            return "Extend a Subscription Renewal Date"
        case ("POST", "subscriptions") where rest.last == "mass":
            return "Extend Subscription Renewal Dates for All Active Subscribers"
        case ("POST", "notifications"):
            return rest.last == "test" ? "Request a Test Notification" : "Get Notification History"
        case ("GET", "notifications"): return "Get Test Notification Status"
        case ("PUT", "transactions"):
            return rest.count > 1 && rest[1] == "consumption" ? "Send Consumption Information" : "Set App Account Token"
        case ("POST", "transactions"): return "Finish Transaction"
        case ("GET", "transactions"):
            return rest.count > 1 && rest[1] == "appTransactions" ? "Get App Transaction Info" : "Get Transaction Info"
        default: return nil
        }
    }

    /// A Retention Messaging endpoint by the first segment after `messaging/` (`default`, `realtime`, `image`,
    /// `message`, `performanceTest`) and the method.
    static func messagingEndpoint(method: String, _ kind: String) -> String? {
        messagingEndpoints[kind]?[method]
    }

    /// The Retention Messaging endpoints by path segment and method, built once.
    static let messagingEndpoints: [String: [String: String]] = [
        "default": [
            "PUT": "Configure Default Message", "GET": "Get Default Message", "DELETE": "Delete Default Message",
        ],
        "realtime": ["PUT": "Configure Realtime Url", "GET": "Get Realtime Url", "DELETE": "Delete Realtime Url"],
        "image": ["PUT": "Upload Image", "GET": "Get Image List", "DELETE": "Delete Image"],
        "message": ["PUT": "Upload Message", "GET": "Get Message List", "DELETE": "Delete Message"],
        "performanceTest": ["GET": "Get Performance Test Results", "POST": "Initiate Performance Test"],
    ]

    /// Budgets set by a test, by endpoint name (others: Apple's).
    public var overrides: [String: Budget] = [:]
    /// Requests counted in the current window, by app and endpoint.
    var windows: [String: (start: Double, count: Int)] = [:]

    /// Makes the limits.
    public init() {}

    /// The budget of `endpoint` in `environment`: Apple's requests per second over an hour, a tenth of it in the
    /// sandbox.
    public func budget(_ endpoint: String, environment: String) -> Budget? {
        if let set = overrides[endpoint] { return set }
        guard let rate = Self.perSecond[endpoint] else { return nil }
        let hourly = rate * 3_600
        return Budget(requests: environment == "Production" ? hourly : hourly / 10, seconds: 3_600)
    }

    /// Counts a request to `endpoint` by `bundleID` at `now`.
    /// - Returns: `nil` when it is within the budget, else the UNIX time in milliseconds from which it is (the
    ///   next window's start).
    public mutating func admit(bundleID: String, endpoint: String, environment: String, now: Date) -> Int64? {
        guard let budget = budget(endpoint, environment: environment), budget.seconds > 0 else { return nil }
        let time = now.timeIntervalSince1970
        let start = (time / budget.seconds).rounded(.down) * budget.seconds
        let key = bundleID + "\n" + endpoint
        var window: (start: Double, count: Int) = windows[key].flatMap { $0.start == start ? $0 : nil } ?? (start, 0)
        guard window.count < budget.requests else {
            return Int64(((start + budget.seconds) * 1_000).rounded(.up))
        }
        window.count += 1
        windows[key] = window
        return nil
    }
}
