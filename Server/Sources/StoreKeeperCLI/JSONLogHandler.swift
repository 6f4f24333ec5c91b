import Foundation
import Logging

/// Writes each log event to standard error as one JSON object on one line: `time` (RFC 3339, milliseconds),
/// `level`, `label`, `message` and every metadata value as a string (`hb.request.id`, `status`, …), keys sorted.
struct JSONLogHandler: LogHandler {
    /// The logger's label.
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    init(label: String) { self.label = label }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        // A log line that cannot be written (standard error closed) has nowhere else to go.
        try? FileHandle.standardError.write(contentsOf: Self.line(event, label: label, metadata: metadata, at: Date()))
    }

    /// The line for one event (with its newline).
    static func line(_ event: LogEvent, label: String, metadata: Logger.Metadata, at time: Date) -> Data {
        var object: [String: String] = [:]
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }) {
            object[key] = value.description
        }
        object["time"] = Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(time)
        object["level"] = event.level.rawValue
        object["label"] = label
        object["message"] = event.message.description
        // Strings only: encoding cannot fail.
        var data = (try? encoder.encode(object)) ?? Data()
        data.append(UInt8(ascii: "\n"))
        return data
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}
