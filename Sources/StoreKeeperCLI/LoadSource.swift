import NIOCore
import NIOHTTP1
import Synchronization

/// One request the load generator sends.
struct LoadRequest: Sendable {
    /// The method.
    var method: HTTPMethod
    /// The path and query.
    var path: String
    /// The body, if any.
    var body: ByteBuffer?
}

/// Where the load generator's connections take their next request: `requests` in order (each once), or
/// generated ones until a count or a deadline. Shared by every connection.
final class LoadSource: Sendable {
    private let index = Atomic<Int>(0)
    let fixed: [LoadRequest]?
    let generate: (@Sendable (Int) -> LoadRequest)?
    let limit: Int?
    let deadline: NIODeadline?

    init(fixed: [LoadRequest]) {
        self.fixed = fixed
        self.generate = nil
        self.limit = nil
        self.deadline = nil
    }

    init(limit: Int?, deadline: NIODeadline?, generate: @escaping @Sendable (Int) -> LoadRequest) {
        self.fixed = nil
        self.generate = generate
        self.limit = limit
        self.deadline = deadline
    }

    /// The next request, or `nil` when the measurement is over.
    func next() -> LoadRequest? {
        let position = index.wrappingAdd(1, ordering: .relaxed).oldValue
        if let fixed { return position < fixed.count ? fixed[position] : nil }
        if let limit, position >= limit { return nil }
        if let deadline, NIODeadline.now() >= deadline { return nil }
        return generate?(position)
    }
}
