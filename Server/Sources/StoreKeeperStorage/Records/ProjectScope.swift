/// The project a read or write belongs to: the tenant boundary.
///
/// A project is one app by default, or several apps the configuration groups (an iOS and a Mac app sharing
/// entitlements). Subscribers, aliases, subscriptions (original transaction ids) and events are stored under
/// project-qualified keys (`project:id`), so every unique index, lookup and lock is per project by
/// construction: no statement can forget a `WHERE project = …`, and the same `app_user_id` in two projects is
/// two customers.
public struct ProjectScope: Sendable, Hashable, CustomStringConvertible {
    /// The project's id: 1–100 characters from `A–Z a–z 0–9 . _ -` (a bundle id qualifies).
    public let id: String

    /// Makes a scope.
    /// - Parameter id: The project id.
    /// - Throws: ``StorageError`` naming the id when it has characters outside `A–Z a–z 0–9 . _ -` or is empty or
    ///   longer than 100.
    public init(_ id: String) throws(StorageError) {
        guard Self.isValid(id) else {
            throw StorageError("project id \"\(id.prefix(100))\" must be 1–100 characters from A–Z a–z 0–9 . _ -")
        }
        self.id = id
    }

    /// Whether `id` can name a project.
    public static func isValid(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= 100
            && id.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == 0x2E || byte == 0x5F || byte == 0x2D
            }
    }

    /// The stored key of `value` (an app user id or an original transaction id) in this project.
    public func key(_ value: String) -> String { id + ":" + value }

    /// The value a stored key names, without its project (a project id has no `:`, so the first one ends it).
    public static func value(ofKey key: String) -> String {
        guard let colon = key.utf8.firstIndex(of: 0x3A) else { return key }
        return String(key[key.utf8.index(after: colon)...])
    }

    /// The project id of a stored key (everything before its first `:`).
    public static func id(ofKey key: String) -> String {
        String(key.prefix { $0 != ":" })
    }

    /// The project id.
    public var description: String { id }
}
