public import AsyncHTTPClient
import NIOCore
public import NIOHTTP1

/// A browser-like client for the dashboard: it does not follow redirects, keeps one cookie and posts forms.
public struct TestBrowser: Sendable {
    /// `http://127.0.0.1:PORT`.
    public let base: String
    /// One client for every browser of the test run (never shut down: it lives as long as the process).
    static let client = HTTPClient(
        eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
    /// The `Cookie` header sent with every request (`name=value`), if any.
    public var cookie: String?

    /// A browser for the server at `base`.
    public init(base: String, cookie: String? = nil) {
        self.base = base
        self.cookie = cookie
    }

    /// One request: the status, the headers and the body as text.
    /// - Parameters:
    ///   - method: The method.
    ///   - path: The path and query.
    ///   - form: A form body (`application/x-www-form-urlencoded`), if any.
    ///   - headers: Extra request headers.
    public func go(_ method: HTTPMethod, _ path: String, form: String? = nil, headers: [(String, String)] = [])
        async throws -> (status: Int, headers: HTTPHeaders, body: String)
    {
        var request = HTTPClientRequest(url: base + path)
        request.method = method
        if let cookie { request.headers.add(name: "Cookie", value: cookie) }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let form {
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            request.body = .bytes(ByteBuffer(string: form))
        }
        let response = try await Self.client.execute(request, timeout: .seconds(60))
        let body = String(buffer: try await response.body.collect(upTo: 8 << 20))
        return (Int(response.status.code), response.headers, body)
    }

    /// Signs in to the dashboard with `key` as a browser does (the form first, for its CSRF token and cookie): the
    /// session cookie (`name=value`), or `nil` when no session was made.
    /// - Parameters:
    ///   - key: The key typed into the form.
    ///   - headers: Extra headers on both requests (`X-Forwarded-Proto` from a proxy).
    public func signIn(key: String, headers: [(String, String)] = []) async throws -> String? {
        let form = try await go(.GET, "/dashboard/login", headers: headers)
        guard let token = Self.csrf(in: form.body) else { return nil }
        var browser = self
        if let set = form.headers.first(name: "Set-Cookie") {
            browser.cookie = set.split(separator: ";").first.map(String.init)
        }
        let answer = try await browser.go(.POST, "/dashboard/login", form: "csrf=\(token)&key=\(key)", headers: headers)
        guard answer.status == 303, let setCookie = answer.headers.first(name: "Set-Cookie") else { return nil }
        return setCookie.split(separator: ";").first.map(String.init)
    }

    /// The CSRF token of the first form on a page, if it has one.
    public static func csrf(in page: String) -> String? {
        page.components(separatedBy: "name=\"csrf\" value=\"").dropFirst().first.map { String($0.prefix(64)) }
    }
}
