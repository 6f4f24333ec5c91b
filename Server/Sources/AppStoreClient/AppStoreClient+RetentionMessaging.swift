public import AppStoreModels
public import Foundation

/// The Retention Messaging API's management calls, as Apple documents them; Apple's errors arrive as
/// ``AppStoreClientError`` with ``AppStoreClientError/appleErrorCode`` (4040021 no realtime URL, 4040015 no such
/// message, 4040014 no such image, 4090001 the message exists, 4090000 the image exists, 4000215 an invalid URL,
/// 4000161 an invalid image).
extension AppStoreClient {
    /// Get Message List.
    public func retentionMessages(credentials: Credentials, environment: ServerAPIEnvironment) async throws
        -> GetMessageListResponse
    {
        try await call(.get, "/inApps/v1/messaging/message/list", credentials: credentials, environment: environment)
    }

    /// Upload Message: a new message (Apple reviews it; its identifier's content cannot change).
    public func uploadRetentionMessage(
        _ messageID: String, _ message: UploadMessageRequestBody, credentials: Credentials,
        environment: ServerAPIEnvironment
    ) async throws {
        _ = try await exchange(
            .put, "/inApps/v1/messaging/message/\(Self.segment(messageID))", credentials: credentials,
            body: try JSONEncoder().encode(message), environment: environment)
    }

    /// Delete Message.
    public func deleteRetentionMessage(_ messageID: String, credentials: Credentials, environment: ServerAPIEnvironment)
        async throws
    {
        _ = try await exchange(
            .delete, "/inApps/v1/messaging/message/\(Self.segment(messageID))", credentials: credentials, body: nil,
            environment: environment)
    }

    /// Get Image List.
    public func retentionImages(credentials: Credentials, environment: ServerAPIEnvironment) async throws
        -> GetImageListResponse
    {
        try await call(.get, "/inApps/v1/messaging/image/list", credentials: credentials, environment: environment)
    }

    /// Upload Image: a PNG without transparency, `FULL_SIZE` (3840 pixels wide, 160–2160 high) or
    /// `BULLET_POINT` (Apple reviews it; its identifier's content cannot change).
    public func uploadRetentionImage(
        _ imageID: String, png: Data, size: String, credentials: Credentials, environment: ServerAPIEnvironment
    ) async throws {
        _ = try await exchange(
            .put, "/inApps/v1/messaging/image/\(Self.segment(imageID))?imageSize=\(Self.segment(size))",
            credentials: credentials, body: png, environment: environment, contentType: "image/png")
    }

    /// Delete Image (Apple: 4030019 while a message shows it).
    public func deleteRetentionImage(_ imageID: String, credentials: Credentials, environment: ServerAPIEnvironment)
        async throws
    {
        _ = try await exchange(
            .delete, "/inApps/v1/messaging/image/\(Self.segment(imageID))", credentials: credentials, body: nil,
            environment: environment)
    }

    /// Delete Default Message.
    public func deleteDefaultRetentionMessage(
        productID: String, locale: String, credentials: Credentials, environment: ServerAPIEnvironment
    ) async throws {
        _ = try await exchange(
            .delete, "/inApps/v1/messaging/default/\(Self.segment(productID))/\(Self.segment(locale))",
            credentials: credentials, body: nil, environment: environment)
    }

    /// Get Default Message: the default message of `productID` in `locale`, or `nil` when none is configured
    /// (Apple's 404 4040020).
    public func defaultRetentionMessage(
        productID: String, locale: String, credentials: Credentials, environment: ServerAPIEnvironment
    ) async throws -> String? {
        do {
            let answer: DefaultConfiguration = try await call(
                .get, "/inApps/v1/messaging/default/\(Self.segment(productID))/\(Self.segment(locale))",
                credentials: credentials, environment: environment)
            return answer.messageIdentifier
        } catch let error as AppStoreClientError where error.appleErrorCode == 4_040_020 {
            return nil
        }
    }

    /// Configure Default Message (Apple: 4030017 while the message is not approved).
    public func configureDefaultRetentionMessage(
        productID: String, locale: String, messageID: String, credentials: Credentials,
        environment: ServerAPIEnvironment
    ) async throws {
        _ = try await exchange(
            .put, "/inApps/v1/messaging/default/\(Self.segment(productID))/\(Self.segment(locale))",
            credentials: credentials,
            body: try JSONEncoder().encode(DefaultConfiguration(messageIdentifier: messageID)),
            environment: environment)
    }

    /// Initiate Performance Test (the sandbox's real-time URL): the test's request id.
    public func initiatePerformanceTest(originalTransactionID: String, credentials: Credentials) async throws -> String
    {
        let body = try JSONSerialization.data(withJSONObject: ["originalTransactionId": originalTransactionID])
        let data = try await exchange(
            .post, "/inApps/v1/messaging/performanceTest", credentials: credentials, body: body, environment: .sandbox)
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let requestID = object["requestId"] as? String
        else {
            throw AppStoreClientError(code: .invalidAnswer, reason: "Initiate Performance Test named no requestId")
        }
        return requestID
    }

    /// Get Performance Test Results.
    public func performanceTestResult(requestID: String, credentials: Credentials) async throws
        -> PerformanceTestResult
    {
        try await call(
            .get, "/inApps/v1/messaging/performanceTest/result/\(Self.segment(requestID))", credentials: credentials,
            environment: .sandbox)
    }

    /// Get Realtime URL: the configured URL, or `nil` when none is (Apple's 404 4040021).
    public func realtimeURL(credentials: Credentials, environment: ServerAPIEnvironment) async throws -> String? {
        do {
            let answer: RealtimeURLBody = try await call(
                .get, "/inApps/v1/messaging/realtime/url", credentials: credentials, environment: environment)
            return answer.realtimeURL
        } catch let error as AppStoreClientError where error.appleErrorCode == 4_040_021 {
            return nil
        }
    }

    /// Configure Realtime URL.
    public func configureRealtimeURL(_ url: String, credentials: Credentials, environment: ServerAPIEnvironment)
        async throws
    {
        _ = try await exchange(
            .put, "/inApps/v1/messaging/realtime/url", credentials: credentials,
            body: try JSONEncoder().encode(RealtimeURLBody(realtimeURL: url)), environment: environment)
    }
}
