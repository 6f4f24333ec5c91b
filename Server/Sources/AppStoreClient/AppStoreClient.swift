public import AppStoreModels
import AppStoreVerification
public import AsyncHTTPClient
public import Crypto
public import Foundation
import NIOCore
import StoreKeeperWire

/// Talks to Apple's verifyReceipt and App Store Server API — or to anything that speaks them, such as the
/// simulator — at configurable base URLs, with Apple's retry rules.
public struct AppStoreClient: Sendable {
    /// Where Apple is, and who we are to it.
    public struct Configuration: Sendable {
        /// verifyReceipt production URL. Default Apple's.
        public var verifyReceiptProductionURL = "https://buy.itunes.apple.com/verifyReceipt"
        /// verifyReceipt sandbox URL. Default Apple's.
        public var verifyReceiptSandboxURL = "https://sandbox.itunes.apple.com/verifyReceipt"
        /// App Store Server API base URL for production. Default Apple's current host (the older
        /// `https://api.storekit.itunes.apple.com` still answers; set it here to use it).
        public var serverAPIBaseURL = "https://api.storekit.apple.com"
        /// App Store Server API base URL for the sandbox. Default Apple's current sandbox host (older:
        /// `https://api.storekit-sandbox.itunes.apple.com`). Set it equal to ``serverAPIBaseURL`` for a server that
        /// answers both (the simulator).
        public var serverAPISandboxBaseURL = "https://api.storekit-sandbox.apple.com"
        /// Attempts for retryable failures (21002, 21005, 21009, 21100–21199, HTTP 429/5xx, timeouts). Default 3.
        public var maximumAttempts = 3
        /// First backoff delay; doubles each retry. Default 200 ms.
        public var initialBackoff: Duration = .milliseconds(200)
        /// Per-request timeout. Default 15 s.
        public var timeout: Duration = .seconds(15)
        /// The most one call may take in all — every retry, and verifyReceipt's sandbox fallback — before it fails
        /// with `deadline_exceeded`. Default 10 s.
        public var totalDeadline: Duration = .seconds(10)

        /// Apple's hosts with the defaults above.
        public init() {}
    }

    /// App Store Connect API credentials for one app.
    public struct Credentials: Sendable {
        /// The issuer id.
        public var issuerID: String
        /// The key id.
        public var keyID: String
        /// The bundle id.
        public var bundleID: String
        /// The in-app purchase key (.p8). Never logged.
        public var privateKey: P256.Signing.PrivateKey

        /// Makes credentials.
        public init(issuerID: String, keyID: String, bundleID: String, privateKey: P256.Signing.PrivateKey) {
            self.issuerID = issuerID
            self.keyID = keyID
            self.bundleID = bundleID
            self.privateKey = privateKey
        }
    }

    /// The configuration.
    public let configuration: Configuration
    let httpClient: HTTPClient

    /// Makes a client.
    /// - Parameters:
    ///   - configuration: URLs and retry rules.
    ///   - httpClient: The HTTP client (owned by the caller).
    public init(configuration: Configuration, httpClient: HTTPClient) {
        self.configuration = configuration
        self.httpClient = httpClient
    }

    // MARK: - verifyReceipt

    /// Calls verifyReceipt: production first, sandbox on 21007 (production again on 21008), retrying temporary
    /// failures with exponential backoff.
    /// - Parameters:
    ///   - receipt: The base64 receipt.
    ///   - sharedSecret: The app's shared secret.
    ///   - excludeOldTransactions: Whether to ask for only the latest renewals.
    /// - Returns: A response with status 0 (or 21006).
    /// - Throws: ``AppStoreClientError`` with `verify_receipt_status` for other statuses, `transport` for network
    ///   failures after retries.
    public func verifyReceipt(_ receipt: String, sharedSecret: String?, excludeOldTransactions: Bool = false)
        async throws
        -> VerifyReceiptResponse
    {
        let body = try JSONEncoder().encode(
            VerifyReceiptRequest(
                receiptData: receipt, password: sharedSecret, excludeOldTransactions: excludeOldTransactions))
        var url = configuration.verifyReceiptProductionURL
        let deadline = ContinuousClock.now + configuration.totalDeadline
        for _ in 0..<2 {
            let response = try await withRetries(until: deadline) { () -> (VerifyReceiptResponse, Bool) in
                let (status, data) = try await post(url, body: body, headers: [:], until: deadline)
                guard status == 200 else {
                    return (VerifyReceiptResponse(status: -status), (500...599).contains(status))
                }
                guard let decoded = try? JSONDecoder().decode(VerifyReceiptResponse.self, from: data) else {
                    throw AppStoreClientError(
                        code: .malformedResponse, reason: "verifyReceipt answered something that is not its JSON")
                }
                return (decoded, VerifyReceiptStatus.isRetryable(decoded.status) || decoded.isRetryable == true)
            }
            switch response.status {
            case VerifyReceiptStatus.sandboxReceiptInProduction: url = configuration.verifyReceiptSandboxURL
            case VerifyReceiptStatus.productionReceiptInSandbox: url = configuration.verifyReceiptProductionURL
            case VerifyReceiptStatus.valid, VerifyReceiptStatus.subscriptionExpired: return response
            case let status where status < 0:
                throw AppStoreClientError(
                    code: .httpStatus, status: -status, reason: "verifyReceipt answered HTTP \(-status)")
            default:
                throw AppStoreClientError(
                    code: .verifyReceiptStatus, status: response.status,
                    reason: VerifyReceiptStatus.explanation(response.status))
            }
        }
        throw AppStoreClientError(
            code: .verifyReceiptStatus, status: 21007, reason: "the receipt bounced between environments")
    }

    // MARK: - App Store Server API

    /// Get All Subscription Statuses.
    /// - Parameters:
    ///   - transactionID: Any transaction id of the customer.
    ///   - credentials: The app's API key.
    /// - Returns: The statuses (signed data still to be verified by the caller).
    public func allSubscriptionStatuses(transactionID: String, credentials: Credentials) async throws -> StatusResponse
    {
        try await get("/inApps/v1/subscriptions/\(Self.segment(transactionID))", credentials: credentials)
    }

    /// Get Transaction History (v2), one page.
    public func transactionHistory(transactionID: String, revision: String?, credentials: Credentials) async throws
        -> HistoryResponse
    {
        let query = revision.map { "?revision=\(Self.segment($0))" } ?? ""
        return try await get("/inApps/v2/history/\(Self.segment(transactionID))\(query)", credentials: credentials)
    }

    /// Get Notification History, one page: the notifications Apple signed for the app between the request's
    /// dates (whether or not they reached the server), with their send attempts.
    /// - Parameters:
    ///   - request: The window (`startDate`, `endDate` in milliseconds) and filters (`onlyFailures`, …).
    ///   - paginationToken: The previous page's token, or `nil` for the first page.
    ///   - credentials: The app's API key.
    public func notificationHistory(
        _ request: NotificationHistoryRequest, paginationToken: String?, credentials: Credentials
    ) async throws -> NotificationHistoryResponse {
        let query = paginationToken.map { "?paginationToken=\(Self.segment($0))" } ?? ""
        return try await get(
            "/inApps/v1/notifications/history\(query)", credentials: credentials,
            body: try JSONEncoder().encode(request))
    }

    /// Which App Store Server API host a call goes to.
    public enum ServerAPIEnvironment: Sendable, Hashable {
        /// ``Configuration/serverAPIBaseURL``.
        case production
        /// ``Configuration/serverAPISandboxBaseURL``.
        case sandbox
    }

    /// The HTTP methods the Server API uses.
    enum Verb: Sendable {
        case get, post, put, delete
    }

    /// A Server API call with retries on 429 and 5xx until the deadline: `GET`, or `POST` with a JSON body.
    func get<Response: Decodable>(_ path: String, credentials: Credentials, body: Data? = nil) async throws
        -> Response
    {
        try await call(body == nil ? .get : .post, path, credentials: credentials, body: body)
    }

    /// A Server API call whose answer is JSON.
    func call<Response: Decodable>(
        _ verb: Verb, _ path: String, credentials: Credentials, body: Data? = nil,
        environment: ServerAPIEnvironment? = nil
    ) async throws -> Response {
        let data = try await exchange(verb, path, credentials: credentials, body: body, environment: environment)
        guard let decoded = try? JSONDecoder().decode(Response.self, from: data) else {
            throw AppStoreClientError(
                code: .malformedResponse, reason: "App Store Server API \(path) answered unexpected JSON")
        }
        return decoded
    }

    /// A Server API call in `environment`; with none, production and then — when production does not know the
    /// transaction (``AppStoreClientError/isUnknownTransaction``) — the sandbox, as Apple advises when the
    /// environment is unknown. Both share one deadline.
    /// - Returns: The answer's body (empty for 202/204 answers).
    func exchange(
        _ verb: Verb, _ path: String, credentials: Credentials, body: Data?, environment: ServerAPIEnvironment?,
        contentType: String = "application/json"
    ) async throws -> Data {
        let deadline = ContinuousClock.now + configuration.totalDeadline
        let production = configuration.serverAPIBaseURL
        let sandbox = configuration.serverAPISandboxBaseURL
        switch environment {
        case .production?:
            return try await attempt(
                verb, production, path, credentials: credentials, body: body, contentType: contentType,
                until: deadline)
        case .sandbox?:
            return try await attempt(
                verb, sandbox, path, credentials: credentials, body: body, contentType: contentType,
                until: deadline)
        case nil:
            do {
                return try await attempt(
                    verb, production, path, credentials: credentials, body: body, contentType: contentType,
                    until: deadline)
            } catch let error as AppStoreClientError where error.isUnknownTransaction && sandbox != production {
                return try await attempt(
                    verb, sandbox, path, credentials: credentials, body: body, contentType: contentType,
                    until: deadline)
            }
        }
    }

    /// One host, with retries on 429 and 5xx until the deadline.
    func attempt(
        _ verb: Verb, _ base: String, _ path: String, credentials: Credentials, body: Data?,
        contentType: String = "application/json", until deadline: ContinuousClock.Instant
    ) async throws -> Data {
        let url = base + path
        var lastStatus: Int?
        var retryAfter: Double?
        return try await withRetries(until: deadline) { () -> (Data?, Bool) in
            let token = try Self.token(credentials, now: Date())
            var request = HTTPClientRequest(url: url)
            request.headers.add(name: "Authorization", value: "Bearer \(token)")
            switch verb {
            case .get: request.method = .GET
            case .post: request.method = .POST
            case .put: request.method = .PUT
            case .delete: request.method = .DELETE
            }
            if let body {
                request.headers.add(name: "Content-Type", value: contentType)
                request.body = .bytes(ByteBuffer(bytes: body))
            }
            let response = try await httpClient.execute(request, timeout: try timeout(until: deadline))
            let data = Data(try await response.body.collect(upTo: 16 << 20).readableBytesView)
            let status = Int(response.status.code)
            if status == 429 || (500...599).contains(status) {
                lastStatus = status
                retryAfter = Self.retryAfter(response.headers.first(name: "Retry-After"), now: Date())
                if status == 429, let wait = retryAfter {
                    // Apple names when it answers again: wait for it within the deadline, else say so at once.
                    guard ContinuousClock.now + .milliseconds(Int64(wait * 1_000)) < deadline else {
                        throw AppStoreClientError(
                            code: .rateLimited, status: 429,
                            reason:
                                "App Store Server API \(path): Apple's rate limit; it answers again in \(Int(wait.rounded(.up))) s",
                            retryAfter: wait)
                    }
                    try await Task.sleep(for: .milliseconds(Int64(wait * 1_000)))
                }
                return (nil, true)
            }
            guard (200...204).contains(status) else {
                let apple = try? JSONDecoder().decode(APIErrorResponse.self, from: data)
                var error = AppStoreClientError(
                    code: .httpStatus, status: status,
                    reason:
                        "App Store Server API \(path): \(apple?.errorMessage ?? "HTTP \(status)") (\(apple?.errorCode ?? 0))"
                )
                error.appleErrorCode = apple?.errorCode.map(Int.init)
                throw error
            }
            return (data, false)
        }
            ?? {
                throw AppStoreClientError(
                    code: lastStatus == 429 ? .rateLimited : .httpStatus, status: lastStatus,
                    reason: "App Store Server API kept failing (HTTP \(lastStatus.map(String.init) ?? "?"))",
                    retryAfter: retryAfter)
            }()
    }

    /// An App Store Connect JWT for the Server API (ES256, `aud` appstoreconnect-v1, 20 minutes).
    public static func token(_ credentials: Credentials, now: Date) throws -> String {
        let iat = Int64(now.timeIntervalSince1970)
        var claims = JSONWriter(capacity: 160)
        claims.object { claims in
            claims.key("iss")
            claims.value(credentials.issuerID)
            claims.key("iat")
            claims.value(iat)
            claims.key("exp")
            claims.value(iat + 1200)
            claims.key("aud")
            claims.value("appstoreconnect-v1")
            claims.key("bid")
            claims.value(credentials.bundleID)
        }
        return try CompactJWS.make(
            payload: claims.bytes, header: CompactJWS.Header(keyID: credentials.keyID, type: "JWT")
        ) { Array(try credentials.privateKey.signature(for: $0).rawRepresentation) }
    }

    // MARK: - Plumbing

    /// The time one request may take: the per-request timeout, or what is left before `deadline` if less.
    /// - Throws: ``AppStoreClientError`` `deadline_exceeded` when nothing is left.
    func timeout(until deadline: ContinuousClock.Instant) throws -> TimeAmount {
        let left = deadline - ContinuousClock.now
        guard left > .milliseconds(1) else { throw Self.deadlineExceeded(configuration.totalDeadline) }
        return .init(min(left, configuration.timeout))
    }

    static func deadlineExceeded(_ total: Duration) -> AppStoreClientError {
        AppStoreClientError(code: .deadlineExceeded, reason: "no answer within the \(total) deadline")
    }

    func post(_ url: String, body: Data, headers: [String: String], until deadline: ContinuousClock.Instant)
        async throws -> (Int, Data)
    {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        request.body = .bytes(ByteBuffer(bytes: body))
        let response = try await httpClient.execute(request, timeout: try timeout(until: deadline))
        return (Int(response.status.code), Data(try await response.body.collect(upTo: 32 << 20).readableBytesView))
    }

    /// Runs `attempt` until it says "not retryable", attempts run out or `deadline` passes; transport errors are
    /// retryable, and a backoff that would end past the deadline is not waited for.
    func withRetries<Value>(until deadline: ContinuousClock.Instant, _ attempt: () async throws -> (Value, Bool))
        async throws -> Value
    {
        var delay = configuration.initialBackoff
        var last: (Value, Bool)?
        for number in 1...max(1, configuration.maximumAttempts) {
            do {
                let result = try await attempt()
                last = result
                if !result.1 { return result.0 }
            } catch let error as AppStoreClientError {
                throw error
            } catch {
                if ContinuousClock.now >= deadline { throw Self.deadlineExceeded(configuration.totalDeadline) }
                if number == configuration.maximumAttempts {
                    throw AppStoreClientError(code: .transport, reason: "\(error)")
                }
            }
            if number < configuration.maximumAttempts {
                guard ContinuousClock.now + delay < deadline else {
                    if last != nil { break }
                    throw Self.deadlineExceeded(configuration.totalDeadline)
                }
                try await Task.sleep(for: delay)
                delay *= 2
            }
        }
        guard let last else { throw AppStoreClientError(code: .transport, reason: "no attempt completed") }
        return last.0
    }

    /// Seconds until Apple answers again, from a `Retry-After` header: the App Store Server API sends a UNIX time in
    /// milliseconds ("Identifying rate limits"); a small number is HTTP's delay in seconds. `nil` when absent or
    /// not a number.
    static func retryAfter(_ header: String?, now: Date) -> Double? {
        guard let text = header?.trimmingCharacters(in: .whitespaces), let value = Double(text), value.isFinite,
            value >= 0
        else { return nil }
        guard value >= 100_000_000_000 else { return value }  // before 1973 in milliseconds: a delay in seconds
        return max(0, value / 1_000 - now.timeIntervalSince1970)
    }
}
