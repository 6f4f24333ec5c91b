public import NIOCore
public import NIOHTTP1
import Synchronization

/// One request the load generator sends.
public struct LoadRequest: Sendable {
    /// The method.
    public var method: HTTPMethod
    /// The path and query.
    public var path: String
    /// The body, if any.
    public var body: ByteBuffer?

    /// Makes a request.
    public init(method: HTTPMethod, path: String, body: ByteBuffer?) {
        self.method = method
        self.path = path
        self.body = body
    }
}

/// Where the load generator's connections take their next request: `requests` in order (each once), or
/// generated ones until a count or a deadline. Shared by every connection.
public final class LoadSource: Sendable {
    private let index = Atomic<Int>(0)
    let fixed: [LoadRequest]?
    let generate: (@Sendable (Int) -> LoadRequest)?
    let limit: Int?
    let deadline: NIODeadline?

    /// A source of exactly these requests, in order.
    public init(fixed: [LoadRequest]) {
        self.fixed = fixed
        self.generate = nil
        self.limit = nil
        self.deadline = nil
    }

    /// A source of generated requests (`generate` gets each request's position) until `limit` requests or
    /// `deadline`, whichever comes first.
    public init(limit: Int?, deadline: NIODeadline?, generate: @escaping @Sendable (Int) -> LoadRequest) {
        self.fixed = nil
        self.generate = generate
        self.limit = limit
        self.deadline = deadline
    }

    /// The next request, or `nil` when the measurement is over.
    public func next() -> LoadRequest? {
        let position = index.wrappingAdd(1, ordering: .relaxed).oldValue
        if let fixed { return position < fixed.count ? fixed[position] : nil }
        if let limit, position >= limit { return nil }
        if let deadline, NIODeadline.now() >= deadline { return nil }
        return generate?(position)
    }
}
