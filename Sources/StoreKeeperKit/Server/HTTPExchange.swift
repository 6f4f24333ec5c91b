public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// One HTTP request and its answer over `URLSession`; a transport failure is ``StoreKeeperError/Code/offline``.
struct HTTPExchange: Sendable {
    /// The session requests go through.
    let session: URLSession
    /// How long one request may take, from start to answer.
    let timeout: TimeInterval
    /// Headers every request carries (what the app says about itself).
    var headers: [(String, String)] = []

    /// The `Authorization` value a request with `key` carries (a signed answer covers its digest).
    static func authorization(_ key: String) -> String { "Bearer \(key)" }

    /// Sends `method url` with an optional bearer key, JSON body and extra headers.
    /// - Returns: The status and body.
    /// - Throws: ``StoreKeeperError`` `offline` when the request did not complete.
    func send(_ method: String, _ url: URL, key: String? = nil, body: Data? = nil) async throws -> (Int, Data) {
        let answer = try await exchange(method, url, key: key, body: body)
        return (answer.status, answer.body)
    }

    /// Sends `method url` with an optional bearer key, JSON body and extra headers.
    /// - Returns: The answer's status, headers and body.
    /// - Throws: ``StoreKeeperError`` `offline` when the request did not complete.
    func exchange(
        _ method: String, _ url: URL, key: String? = nil, body: Data? = nil, extraHeaders: [(String, String)] = []
    ) async throws -> (status: Int, headers: [String: String], body: Data) {
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = method
        for (name, value) in headers + extraHeaders { request.setValue(value, forHTTPHeaderField: name) }
        if let key { request.setValue(Self.authorization(key), forHTTPHeaderField: "Authorization") }
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let session = session
        // The completion-handler form: FoundationNetworking's async `data(for:)` can trap when the calling task is
        // cancelled mid-request (a stopped updates listener), and this one cannot.
        let timeout = timeout
        return try await withCheckedThrowingContinuation { continuation in
            let task = session.dataTask(with: request) { data, response, error in
                if let error {
                    continuation.resume(
                        throwing: StoreKeeperError(
                            .offline, "\(method) \(url.path) did not complete: \(error.localizedDescription)"))
                } else {
                    let response = response as? HTTPURLResponse
                    var headers: [String: String] = [:]
                    for case (let name as String, let value as String) in response?.allHeaderFields ?? [:] {
                        headers[name] = value
                    }
                    continuation.resume(returning: (response?.statusCode ?? 0, headers, data ?? Data()))
                }
            }
            task.resume()
            // The request's whole time is bounded here: `timeoutInterval` is only an idle bound on Apple's
            // platforms, and FoundationNetworking waits the session's 60 s instead. Cancelling completes the task
            // with an error, which is `offline`; cancelling a finished task does nothing.
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { task.cancel() }
        }
    }
}
