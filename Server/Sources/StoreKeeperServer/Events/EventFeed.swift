import Foundation
import StoreKeeperAPI
import StoreKeeperStorage

/// The events room's logic, apart from HTTP: a page of the caller's project's event feed, every subscriber event
/// in commit order, resumable by cursor, so a warehouse can pull everything once.
struct EventFeed: Sendable {
    let store: any EvidenceStore
    let apps: AppDirectory

    /// The most events one page holds, and how many when `limit` is not given.
    static let maximumLimit = 1_000
    static let defaultLimit = 100

    /// `GET /v1/events?after=&limit=`.
    /// - Parameters:
    ///   - after: A cursor a page handed out, or `nil` from the first event.
    ///   - limit: How many events at most (1–1000, default 100).
    ///   - bundleID: The caller's app (its project is read).
    /// - Throws: ``ServiceError`` `invalid_parameter` naming a cursor or limit that is not one.
    func page(after: String?, limit: String?, bundleID: String) async throws -> EventFeedResponse {
        let project = try apps.project(bundleID)
        let cursor = try after.map { text throws(ServiceError) in
            guard let cursor = EventFeedCursor(text) else {
                throw ServiceError.invalid(
                    .invalidParameter, "after=\"\(text.prefix(64))\": expected a next_cursor this feed handed out")
            }
            return cursor
        }
        let count = try PageLimit.parse(limit, maximum: Self.maximumLimit, default: Self.defaultLimit)
        let page = try await store.eventFeed(in: project, after: cursor, limit: count)
        return EventFeedResponse(
            events: page.events.map { event in
                ProjectEvent(
                    id: event.id, appUserID: event.appUserID, createdAt: event.createdAt, type: event.type,
                    cause: event.cause.rawValue, causeID: event.causeID, evidenceID: event.evidenceID,
                    detail: event.detail)
            }, nextCursor: page.next?.description)
    }

    /// A page as newline-delimited JSON: one event per line, then nothing (the cursor is in a header).
    static func ndjson(_ page: EventFeedResponse) throws -> [UInt8] {
        let encoder = APICoding.encoder()
        var bytes: [UInt8] = []
        for event in page.events {
            bytes += try encoder.encode(event)
            bytes.append(UInt8(ascii: "\n"))
        }
        return bytes
    }
}
