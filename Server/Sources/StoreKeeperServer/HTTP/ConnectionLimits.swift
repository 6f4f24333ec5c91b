/// How long a connection may take and how many may be open: the explicit edges of the HTTP server.
public struct ConnectionLimits: Sendable, Codable, Hashable {
    /// Seconds a connection may stay open with no request in progress. Default 60.
    public var idleTimeoutSeconds: Double = 60
    /// Seconds from a request's first byte until its header is complete (a request line without a version, a
    /// header that never ends). Default 10.
    public var headerTimeoutSeconds: Double = 10
    /// Seconds from the end of a request's header until its body is complete. Default 30.
    public var bodyTimeoutSeconds: Double = 30
    /// Seconds from a response's first byte until its last has been handed to the network: a client that stops
    /// reading (a tiny receive window, pipelined requests never read) has its connection closed after it.
    /// Default 30.
    public var responseTimeoutSeconds: Double = 30
    /// Seconds a request waits for a database connection before it answers 503 `database_unavailable` with a
    /// `retry_after` (PostgreSQL stopped, restarting or unreachable). Default 5.
    public var databaseTimeoutSeconds: Double = 5
    /// The most connections open at once; beyond it a new connection is answered 503 and closed at once while
    /// the open ones keep being served. Default 4,096.
    public var maximumConnections = 4_096

    /// The defaults.
    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case idleTimeoutSeconds, headerTimeoutSeconds, bodyTimeoutSeconds, responseTimeoutSeconds,
            databaseTimeoutSeconds,
            maximumConnections
    }

    /// Decodes limits; every key is optional.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        idleTimeoutSeconds = try c.decodeIfPresent(Double.self, forKey: .idleTimeoutSeconds) ?? idleTimeoutSeconds
        headerTimeoutSeconds = try c.decodeIfPresent(Double.self, forKey: .headerTimeoutSeconds) ?? headerTimeoutSeconds
        bodyTimeoutSeconds = try c.decodeIfPresent(Double.self, forKey: .bodyTimeoutSeconds) ?? bodyTimeoutSeconds
        responseTimeoutSeconds =
            try c.decodeIfPresent(Double.self, forKey: .responseTimeoutSeconds) ?? responseTimeoutSeconds
        databaseTimeoutSeconds =
            try c.decodeIfPresent(Double.self, forKey: .databaseTimeoutSeconds) ?? databaseTimeoutSeconds
        maximumConnections = try c.decodeIfPresent(Int.self, forKey: .maximumConnections) ?? maximumConnections
    }

    /// The first limit that cannot work, named with its value, or `nil`.
    var problem: String? {
        for (name, seconds) in [
            ("idleTimeoutSeconds", idleTimeoutSeconds), ("headerTimeoutSeconds", headerTimeoutSeconds),
            ("bodyTimeoutSeconds", bodyTimeoutSeconds), ("responseTimeoutSeconds", responseTimeoutSeconds),
            ("databaseTimeoutSeconds", databaseTimeoutSeconds),
        ] where !(seconds > 0 && seconds <= 86_400) {
            return "limits.\(name) is \(seconds); it must be more than 0 and at most 86400"
        }
        return maximumConnections > 0
            ? nil : "limits.maximumConnections is \(maximumConnections); it must be at least 1"
    }
}
