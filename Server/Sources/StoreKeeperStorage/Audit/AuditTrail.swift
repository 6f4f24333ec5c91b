import Synchronization

/// The audit entry of the request being served, carried as a task-local value: the first write transaction the
/// request commits appends it to the audit log inside that transaction (``AuditedDatabase``), so a change and its
/// entry commit or roll back together, and a request that writes nothing (refused, or a read) leaves none.
public final class AuditTrail: Sendable {
    let state: Mutex<(entry: AuditEntry, committed: Bool)>

    /// A trail for one request.
    public init(_ entry: AuditEntry) { state = Mutex((entry, false)) }

    /// The trail of the request this task serves, if it is one that is audited.
    @TaskLocal public static var current: AuditTrail?

    /// The entry as it stands.
    public var entry: AuditEntry { state.withLock { $0.entry } }

    /// Whether a transaction has committed the entry.
    public var isCommitted: Bool { state.withLock { $0.committed } }

    /// Sets the entry's summary once the request's body is read (before anything is written).
    public func describe(_ summary: String) { state.withLock { $0.entry.summary = summary } }

    func markCommitted() { state.withLock { $0.committed = true } }
}
