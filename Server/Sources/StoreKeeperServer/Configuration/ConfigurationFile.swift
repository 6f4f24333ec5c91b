import AppStoreVerification
import Foundation
import StoreKeeperAPI
import StoreKeeperStorage
import SubscriptionEngine

/// Reads a configuration file strictly: a key the server does not read is a typo that would silently leave a
/// default in place, so it is refused by name and place, as the API refuses unknown fields. Every failure is
/// one line naming the file.
enum ConfigurationFile {
    /// The keys each part of the file may hold.
    static let topLevel = Set(ServerConfiguration.CodingKeys.allCases.map(\.stringValue))
    static let app = Set(ServerConfiguration.App.CodingKeys.allCases.map(\.stringValue))
    static let project = Set(ServerConfiguration.Project.CodingKeys.allCases.map(\.stringValue))
    static let apiKey = Set(ServerConfiguration.APIKey.CodingKeys.allCases.map(\.stringValue))
    static let webhook = Set(ServerConfiguration.Webhook.CodingKeys.allCases.map(\.stringValue))
    static let limits = Set(ConnectionLimits.CodingKeys.allCases.map(\.stringValue))
    static let engine = Set(EngineConfiguration.CodingKeys.allCases.map(\.stringValue))

    /// Reads and decodes `path`.
    /// - Throws: ``ConfigurationError`` naming the file and what is wrong with it.
    static func read(_ path: String) throws -> ServerConfiguration {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let exists = FileManager.default.fileExists(atPath: path)
            throw ConfigurationError(
                exists ? "configuration file \(path) cannot be read" : "configuration file \(path) does not exist")
        }
        if let (offset, reason) = JSONValue.firstError(in: Array(data)) {
            let (line, column) = position(of: offset, in: data)
            throw ConfigurationError(
                "configuration \(path): not valid JSON at line \(line), column \(column) (\(reason))")
        }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw ConfigurationError("configuration \(path): the file must hold one JSON object")
        }
        if let (key, place) = unknownKey(in: object) {
            let where_ = place.isEmpty ? "at the top level" : "in \(place)"
            throw ConfigurationError("configuration \(path): unknown key \"\(key.prefix(100))\" \(where_)")
        }
        for (bundleID, rules) in (object["retentionRules"] as? [String: Any] ?? [:]).sorted(by: { $0.key < $1.key }) {
            guard let body = try? JSONSerialization.data(withJSONObject: rules) else { continue }
            do { _ = try APICall.strictlyDecoded(RetentionRules.self, from: body) } catch let error as ServiceError {
                throw ConfigurationError("configuration \(path): retentionRules.\(bundleID): \(error.message)")
            }
        }
        do {
            return try JSONDecoder().decode(ServerConfiguration.self, from: data)
        } catch let DecodingError.typeMismatch(type, context), let DecodingError.valueNotFound(type, context) {
            throw ConfigurationError("configuration \(path): \(name(context.codingPath)) must be \(describe(type))")
        } catch let DecodingError.keyNotFound(key, context) {
            throw ConfigurationError("configuration \(path): \(name(context.codingPath + [key])) is required")
        } catch let DecodingError.dataCorrupted(context) {
            throw ConfigurationError("configuration \(path): \(name(context.codingPath)): \(context.debugDescription)")
        } catch let error as ConfigurationError {
            throw ConfigurationError("configuration \(path): \(error.reason)")
        }
    }

    /// The first key no part of the configuration reads, and where it is (`apps[0]`, `limits`…).
    static func unknownKey(in object: [String: Any]) -> (String, String)? {
        func check(_ object: [String: Any], _ known: Set<String>, _ place: String) -> (String, String)? {
            object.keys.sorted().first { !known.contains($0) }.map { ($0, place) }
        }
        if let found = check(object, topLevel, "") { return found }
        for (field, known) in [("apps", app), ("projects", project), ("apiKeys", apiKey), ("webhooks", webhook)] {
            for (index, entry) in (object[field] as? [Any] ?? []).enumerated() {
                if let entry = entry as? [String: Any], let found = check(entry, known, "\(field)[\(index)]") {
                    return found
                }
            }
        }
        for (field, known) in [("limits", limits), ("engine", engine)] {
            if let entry = object[field] as? [String: Any], let found = check(entry, known, field) { return found }
        }
        return nil
    }

    /// 1-based line and column of a byte offset.
    static func position(of offset: Int, in data: Data) -> (Int, Int) {
        var line = 1
        var column = 1
        for byte in data.prefix(offset) {
            if byte == 0x0A {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return (line, column)
    }

    static func name(_ path: [any CodingKey]) -> String {
        path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().trimmingCharacters(in: ["."])
    }

    static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Int64.Type, is Double.Type: "a number"
        case is Bool.Type: "true or false"
        default: "a \(type)".replacingOccurrences(of: "Swift.", with: "")
        }
    }
}
