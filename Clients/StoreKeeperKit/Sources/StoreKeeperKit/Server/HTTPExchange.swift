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

    /// Sends `method url` with an optional bearer key and JSON body.
    /// - Returns: The status and body.
    /// - Throws: ``StoreKeeperError`` `offline` when the request did not complete.
    func send(_ method: String, _ url: URL, key: String? = nil, body: Data? = nil) async throws -> (Int, Data) {
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let key { request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization") }
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
                    continuation.resume(returning: ((response as? HTTPURLResponse)?.statusCode ?? 0, data ?? Data()))
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
