import Foundation

/// A delivery URL read once: the origin its deliveries share connections to, and the request line's target.
struct WebhookURL: Sendable, Hashable {
    /// `http` or `https`, lowercased.
    let scheme: String
    /// The host, lowercased, without an IPv6 literal's brackets.
    let host: String
    /// The port, written or the scheme's default.
    let port: Int
    /// Path and query as written (percent-encoded), `/` when the URL has no path.
    let target: String
    /// Scheme, host and port: deliveries to one origin share connections and lanes.
    let origin: String
    /// The `Host` header: the host, with the port unless it is the scheme's default.
    let hostHeader: String

    /// Reads an absolute `http` or `https` URL with a host; `nil` for anything else.
    init?(_ raw: String) {
        guard let components = URLComponents(string: raw), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", var host = components.host?.lowercased(), !host.isEmpty
        else { return nil }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let port = components.port ?? (scheme == "https" ? 443 : 80)
        guard (1...65_535).contains(port) else { return nil }
        let path = components.percentEncodedPath
        self.scheme = scheme
        self.host = host
        self.port = port
        self.target = (path.isEmpty ? "/" : path) + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
        let bracketed = host.utf8.contains(UInt8(ascii: ":")) ? "[\(host)]" : host
        self.origin = "\(scheme)://\(bracketed):\(port)"
        self.hostHeader = port == (scheme == "https" ? 443 : 80) ? bracketed : "\(bracketed):\(port)"
    }

    /// Whether the connection is TLS.
    var isTLS: Bool { scheme == "https" }
}
