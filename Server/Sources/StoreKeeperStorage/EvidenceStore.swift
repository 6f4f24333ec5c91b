public import Foundation
public import SubscriptionEngine

/// Evidence and subscribers: verified evidence stored and applied, subscribers read by id or alias, their events,
/// aliases and the notifications received.
public protocol EvidenceStore: Sendable {
    /// Which subscribers' rows changed (this process's writes, and on PostgreSQL other processes' too).
    var changes: SubscriberChanges { get }

    /// Stores verified evidence and applies it.
    /// - Parameters:
    ///   - write: The evidence.
    ///   - policy: What to do when a subscription arrives for a second user.
    ///   - now: The server's clock.
    /// - Returns: What happened.
    func apply(_ write: EvidenceWrite, policy: TransferPolicy, now: Date) async throws -> ApplyOutcome

    /// A subscriber by id or alias, in one project (another project's subscriber is not found).
    func subscriber(_ appUserID: String, in project: ProjectScope) async throws -> SubscriberRecord?

    /// A subscriber's stored row by id or alias in one project, evidence undecoded: one indexed read.
    func snapshot(_ appUserID: String, in project: ProjectScope) async throws -> SubscriberSnapshot?

    /// A snapshot's evidence, decoded (or remembered from an earlier decode of the same JSON).
    func decodeEvidence(_ snapshot: SubscriberSnapshot) throws -> EvidenceSet

    /// Everything known about a subscriber: its row's evidence and the history folded out of it (what answers
    /// about the past — metrics, timelines — are computed from; answers from now on need only the row).
    /// - Parameter snapshot: The subscriber's row.
    /// - Returns: The whole evidence.
    func fullEvidence(_ snapshot: SubscriberSnapshot) async throws -> EvidenceSet

    /// Drops the raw text of up to `limit` stored evidence rows received before `cutoff`, receipts excepted (the
    /// retention setting): their digest, and everything decided from them, stay.
    /// - Returns: How many were dropped (`limit`: there may be more).
    func purgeRawEvidence(receivedBefore cutoff: Date, limit: Int) async throws -> Int

    /// The base64 app receipt last stored for a subscriber (by its storage key), if any: what polling asks
    /// verifyReceipt with when the app has no App Store Server API credentials.
    func latestReceipt(appUserKey: String) async throws -> String?

    /// The subscriptions and purchases (original transaction ids) whose transactions name `appTransactionID`, by
    /// the storage key of the subscriber that owns them, in one project. Found by scanning stored evidence: it
    /// answers a parent's rescinded consent, which is rare.
    func originals(appTransactionID: String, in project: ProjectScope) async throws -> [String: [String]]

    /// The newest notifications received for these apps, newest first (only notifications that verified are
    /// stored).
    func recentNotifications(bundleIDs: [String], limit: Int) async throws -> [NotificationRecord]

    /// A subscriber's events in one project, oldest first.
    func events(_ appUserID: String, in project: ProjectScope, limit: Int) async throws -> [EventRecord]
    /// A subscriber's events of one type in one project, oldest first (a count of what support did, without
    /// reading the rest of the history).
    func events(_ appUserID: String, in project: ProjectScope, type: String) async throws -> [EventRecord]
    /// A page of the project's event feed: every subscriber event of the project in commit order, after `cursor`
    /// (`nil`: from the first), never passing an event a write in progress will still commit.
    /// - Returns: The events, and the cursor after the last (`cursor` itself when there are none).
    func eventFeed(in project: ProjectScope, after cursor: EventFeedCursor?, limit: Int) async throws -> (
        events: [EventRecord], next: EventFeedCursor?
    )
    /// Where the project's event feed ends now (its last event a reader may pass), `nil` when it has none: a
    /// reader starting there sees every event committed later.
    func eventFeedEnd(in project: ProjectScope) async throws -> EventFeedCursor?
    /// The project's last event committed now, whether or not a reader may pass it yet (a transaction still
    /// running below it holds the horizon back); `nil` when it has none. What a reader that must count everything
    /// committed before it asked waits for.
    func eventFeedLatest(in project: ProjectScope) async throws -> EventFeedCursor?

    /// Makes `alias` another name for `appUserID`, merging the alias's evidence into it; both ids are in
    /// `project`, so an alias never reaches another project's subscriber.
    /// - Parameter authority: Who asks: the customer `alias` resolves to (read inside the merge's transaction)
    ///   must be one it ``MergeAuthority/permits(merging:isItsOwnCustomer:evidence:)``.
    /// - Throws: ``MergeRefused`` (nothing written) when it is not.
    func alias(
        _ alias: String, to appUserID: String, in project: ProjectScope, bundleID: String, now: Date,
        authority: MergeAuthority
    ) async throws

    /// The customer key owning a subscription among the apps `bundleIDs` (a project's), or `nil`.
    /// - Parameter originalTransactionKey: The project's key of the original transaction id
    ///   (`ProjectScope.key`), as ownership is stored.
    func owner(originalTransactionKey: String, bundleIDs: [String]) async throws -> String?

    /// Announces what the clock changed for up to `limit` subscribers that are due at `now`.
    /// - Returns: How many were looked at (`limit`: more may be due).
    func announceDue(now: Date, limit: Int) async throws -> Int
}

extension EvidenceStore {
    /// Merges as the owner's backend may (``MergeAuthority/owner``): any customer.
    public func alias(_ alias: String, to appUserID: String, in project: ProjectScope, bundleID: String, now: Date)
        async throws
    {
        try await self.alias(alias, to: appUserID, in: project, bundleID: bundleID, now: now, authority: .owner)
    }
}
