/// Why a webhook request got no answer. Its ``description`` (with the connect error) goes to the server's own log;
/// the delivery log, which the endpoint's project reads through the API, shows only ``deliveryLog``.
enum WebhookHTTPError: Error, Equatable, CustomStringConvertible {
    /// The host is, or resolves to, an address deliveries never go to (``WebhookTarget``).
    case refused(String)
    /// The host resolves to no address.
    case unresolved(host: String)
    /// No connection could be made to any of the host's addresses.
    case unreachable(host: String, port: Int, reason: String)
    /// The connection closed before a whole answer; `answered` tells whether the status line had arrived.
    case closed(answered: Bool)
    /// No whole answer by the round's deadline.
    case timedOut
    /// The client was shut down.
    case shutDown

    var description: String {
        switch self {
        case .refused(let reason): "\(reason); webhooks are never sent there"
        case .unresolved(let host): "\(host) resolves to no address"
        case .unreachable(let host, let port, let reason): "could not connect to \(host):\(port) (\(reason))"
        case .closed(let answered):
            answered ? "the connection closed during the answer" : "the connection closed before an answer"
        case .timedOut: "no answer by the deadline"
        case .shutDown: "the webhook client was shut down"
        }
    }

    /// What the delivery log records after `not sent: `. Whether a port refused, timed out or closed, and whether a
    /// name resolves, are left out: an endpoint's owner could otherwise scan the server's network through it.
    var deliveryLog: String {
        switch self {
        case .refused, .shutDown: description
        case .unresolved, .unreachable, .closed, .timedOut: "no HTTP answer"
        }
    }
}
