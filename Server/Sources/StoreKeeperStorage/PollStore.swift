public import Foundation

/// The poll schedule's API: every write's announcement sets when a subscriber is next asked about at Apple;
/// workers lease what is due.
public protocol PollStore: Sendable {
    /// Takes up to `limit` subscribers whose poll is due until `leaseUntil`: none is taken by two workers while its
    /// lease holds (PostgreSQL: `FOR UPDATE SKIP LOCKED`).
    func leasePolls(now: Date, leaseUntil: Date, limit: Int) async throws -> [DuePoll]
    /// Ends a poll: releases its lease and, when given, sets the next poll (a write that learned something has
    /// set it already).
    func releasePoll(appUserKey: String, nextAt: Date?) async throws
    /// The earliest poll instant at or before `now` (`nil`: none is due): how late polling is.
    func oldestDuePoll(now: Date) async throws -> Date?
}
