public import Logging
import Synchronization

/// Every line a logger was given, kept for a test to read: its message and metadata (the logger's own merged with
/// the line's).
public final class CapturedLog: Sendable {
    private let kept = Mutex<[(message: String, metadata: Logger.Metadata)]>([])

    /// An empty log.
    public init() {}

    /// A logger at `level` whose lines this log keeps.
    public func logger(label: String = "test", level: Logger.Level = .trace) -> Logger {
        var logger = Logger(label: label) { _ in Handler(log: self) }
        logger.logLevel = level
        return logger
    }

    /// The lines so far, oldest first.
    public var lines: [(message: String, metadata: Logger.Metadata)] { kept.withLock { $0 } }

    fileprivate func keep(_ message: String, _ metadata: Logger.Metadata) {
        kept.withLock { $0.append((message, metadata)) }
    }

    private struct Handler: LogHandler {
        let log: CapturedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            log.keep("\(event.message)", metadata.merging(event.metadata ?? [:]) { $1 })
        }
    }
}
