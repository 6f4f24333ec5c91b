public import Foundation
public import SubscriptionEngine

/// A subscriber's stored row exactly as read, evidence still in its stored JSON: what the read path needs to
/// decide whether an answer it already computed for the same row still holds, without decoding anything.
public struct SubscriberSnapshot: Sendable, Hashable {
    /// The row's key: the canonical app user id qualified by its project (see ``ProjectScope``). Published
    /// changes name rows by this key.
    public var storageKey: String
    /// The canonical app user id.
    public var appUserID: String
    /// The app.
    public var bundleID: String
    /// The materialised evidence, as stored (``EvidenceSet`` JSON).
    public var evidenceJSON: String
    /// Other ids that resolve to this subscriber, sorted.
    public var aliases: [String]
    /// When the subscriber was first seen.
    public var createdAt: Date

    /// Makes a snapshot.
    public init(
        storageKey: String, appUserID: String, bundleID: String, evidenceJSON: String, aliases: [String],
        createdAt: Date
    ) {
        self.storageKey = storageKey
        self.appUserID = appUserID
        self.bundleID = bundleID
        self.evidenceJSON = evidenceJSON
        self.aliases = aliases
        self.createdAt = createdAt
    }

    /// The decoded record.
    /// - Parameter evidence: The decoded evidence (``Store/decodeEvidence(_:)``).
    /// - Returns: The record.
    public func record(evidence: EvidenceSet) -> SubscriberRecord {
        SubscriberRecord(
            appUserID: appUserID, bundleID: bundleID, evidence: evidence, aliases: aliases, createdAt: createdAt)
    }
}
