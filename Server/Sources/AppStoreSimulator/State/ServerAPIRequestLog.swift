/// How many App Store Server API requests the simulator answered, by method and path (`GET
/// /inApps/v1/subscriptions/2000000001`): what a server under test asked Apple, and how often. Bounded: past
/// ``capacity`` distinct requests, new ones are only counted in ``overflow``.
public struct ServerAPIRequestLog: Sendable, Equatable {
    /// The most distinct requests kept.
    public static let capacity = 200_000
    /// Requests answered, by `METHOD path`.
    public private(set) var counts: [String: Int] = [:]
    /// Requests not kept because the log was full.
    public private(set) var overflow = 0

    /// An empty log.
    public init() {}

    /// Counts one request.
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - path: The path, without the query.
    public mutating func record(method: String, path: String) {
        let key = "\(method) \(path)"
        if counts[key] == nil, counts.count >= Self.capacity {
            overflow += 1
        } else {
            counts[key, default: 0] += 1
        }
    }
}
