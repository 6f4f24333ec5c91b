import AppStoreClient
import AppStoreModels
import ArgumentParser
import Foundation

/// `storekeeper retention push --config SERVER.json --messages RETENTION.json`
struct RetentionPushCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push",
        abstract:
            "Upload an app's retention messages and set its real-time URL through Apple's Retention Messaging API.",
        discussion: """
            RETENTION.json: {"bundleID": "…", "realtimeURL": "https://…/v1/retention/appstore", "images": \
            [{"id": "<uuid>", "path": "banner.png", "size": "FULL_SIZE" | "BULLET_POINT"}], "messages": \
            [{"id": "<uuid>", "header": "…", "body": "…", "image"?: {"imageIdentifier", "altText"}, \
            "bulletPoints"?: [{"text", "imageIdentifier", "altText"}], "headerPosition"?: "ABOVE_IMAGE"}], \
            "defaultMessages": {"<product id>": {"<locale>": "<uuid>"}}}. An image's path is relative to the \
            retention file. Images go first, then messages. A default message must be approved first (and its \
            images): until Apple approves them, its line says so. The app's API credentials (issuerID, keyID, \
            privateKeyPath) come from the server's configuration. An image or message Apple already has is left as \
            it is (Apple's cannot change: upload a new id); each line printed says what changed. Exit 1 names \
            Apple's error.
            """)

    @Option(help: "The server's configuration file (the app's credentials, Apple's URLs).") var config: String
    @Option(help: "The retention file: bundleID, realtimeURL, messages.") var messages: String
    @Option(help: "sandbox or production.") var environment = "sandbox"

    /// The retention file.
    struct Plan: Decodable {
        struct Image: Decodable {
            var id: String
            var path: String
            var size: String?
        }
        struct Message: Decodable {
            var id: String
            var header: String
            var body: String
            var image: UploadMessageImage?
            var bulletPoints: [BulletPoint]?
            var headerPosition: String?
        }
        var bundleID: String
        var realtimeURL: String?
        var images: [Image]?
        var messages: [Message]?
        var defaultMessages: [String: [String: String]]?
    }

    func run() async throws {
        guard ["sandbox", "production"].contains(environment) else {
            throw ValidationError("--environment is \(environment); expected sandbox or production")
        }
        let plan: Plan
        do {
            plan = try JSONDecoder().decode(Plan.self, from: try Data(contentsOf: URL(fileURLWithPath: messages)))
        } catch {
            throw CommandFailure("cannot read \(messages) as a retention file: \(error)")
        }
        let (client, credentials) = try RetentionCommand.client(config: config, bundleID: plan.bundleID)
        let target: AppStoreClient.ServerAPIEnvironment = environment == "production" ? .production : .sandbox
        do {
            let folder = URL(fileURLWithPath: messages).deletingLastPathComponent()
            for line in try await push(
                plan, client: client, credentials: credentials, environment: target, folder: folder)
            {
                FileHandleOutput.standardOutput(line)
            }
        } catch let error as AppStoreClientError {
            throw CommandFailure("Apple refused: \(error.reason)")
        }
    }

    /// Makes Apple hold `plan`; one line per message and one for the URL, saying what changed.
    func push(
        _ plan: Plan, client: AppStoreClient, credentials: AppStoreClient.Credentials,
        environment: AppStoreClient.ServerAPIEnvironment, folder: URL
    ) async throws -> [String] {
        var lines: [String] = []
        if let images = plan.images, !images.isEmpty {
            let held = try await client.retentionImages(credentials: credentials, environment: environment)
            var states: [String: String] = [:]
            for item in held.imageIdentifiers ?? [] {
                if let id = item.imageIdentifier?.lowercased() { states[id] = item.imageState ?? "?" }
            }
            for image in images {
                if let state = states[image.id.lowercased()] {
                    lines.append("image \(image.id): unchanged (\(state))")
                    continue
                }
                let file = URL(fileURLWithPath: image.path, relativeTo: folder)
                guard let png = try? Data(contentsOf: file) else {
                    throw CommandFailure("image \(image.id): cannot read \(file.path)")
                }
                try await client.uploadRetentionImage(
                    image.id, png: png, size: image.size ?? "FULL_SIZE", credentials: credentials,
                    environment: environment)
                lines.append("image \(image.id): uploaded (PENDING Apple's review)")
            }
        }
        let held = try await client.retentionMessages(credentials: credentials, environment: environment)
        var states: [String: String] = [:]
        for item in held.messageIdentifiers ?? [] {
            if let id = item.messageIdentifier?.lowercased() { states[id] = item.messageState ?? "?" }
        }
        for message in plan.messages ?? [] {
            if let state = states[message.id.lowercased()] {
                lines.append("message \(message.id): unchanged (\(state))")
                continue
            }
            let upload = UploadMessageRequestBody(
                header: message.header, body: message.body, image: message.image, bulletPoints: message.bulletPoints,
                headerPosition: message.headerPosition)
            try await client.uploadRetentionMessage(
                message.id, upload, credentials: credentials, environment: environment)
            lines.append("message \(message.id): uploaded (PENDING Apple's review)")
        }
        for (productID, locales) in (plan.defaultMessages ?? [:]).sorted(by: { $0.key < $1.key }) {
            for (locale, messageID) in locales.sorted(by: { $0.key < $1.key }) {
                let place = "default message \(productID) \(locale)"
                let current = try await client.defaultRetentionMessage(
                    productID: productID, locale: locale, credentials: credentials, environment: environment)
                if current?.lowercased() == messageID.lowercased() {
                    lines.append("\(place): unchanged (\(messageID))")
                    continue
                }
                do {
                    try await client.configureDefaultRetentionMessage(
                        productID: productID, locale: locale, messageID: messageID, credentials: credentials,
                        environment: environment)
                    lines.append("\(place): set to \(messageID)" + (current.map { " (was \($0))" } ?? ""))
                } catch let error as AppStoreClientError where error.appleErrorCode == 4_030_017 {
                    lines.append("\(place): not set: \(messageID) waits for Apple's approval")
                } catch let error as AppStoreClientError where error.appleErrorCode == 4_030_018 {
                    lines.append("\(place): not set: an image of \(messageID) waits for Apple's approval")
                }
            }
        }
        if let url = plan.realtimeURL {
            let current = try await client.realtimeURL(credentials: credentials, environment: environment)
            if current == url {
                lines.append("realtime URL: unchanged (\(url))")
            } else {
                try await client.configureRealtimeURL(url, credentials: credentials, environment: environment)
                lines.append("realtime URL: set to \(url)" + (current.map { " (was \($0))" } ?? ""))
            }
        }
        return lines
    }
}
