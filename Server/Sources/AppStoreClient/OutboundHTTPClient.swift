public import AsyncHTTPClient
import NIOCore

/// The HTTP client the server and the simulator use toward other hosts (Apple, notification URLs): a refused
/// connection fails at once instead of being retried until the request's deadline, and a connection attempt
/// gives up after 3 s. Callers bound each call's total time themselves (``AppStoreClient``'s deadline).
public enum OutboundHTTPClient {
    /// A new client (the caller shuts it down).
    /// - Returns: The client.
    public static func make() -> HTTPClient {
        var configuration = HTTPClient.Configuration()
        configuration.timeout.connect = .seconds(3)
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }
}
