import HTTPTypes
import Hummingbird
import StoreKeeperAPI

/// The events room: `GET /v1/events` (secret key), the project's event feed as JSON or, with `format=ndjson`,
/// one event per line with the next cursor in the `StoreKeeper-Next-Cursor` header.
struct EventFeedRoutes: APIFeature {
    let feed: EventFeed

    /// The header that carries an ndjson page's next cursor.
    static let nextCursorHeader = HTTPField.Name("StoreKeeper-Next-Cursor")!

    func register(_ handlers: inout APIHandlers) {
        handlers.on(.getEventFeed) { call in
            let ndjson: Bool
            switch call.query("format") {
            case nil, "json": ndjson = false
            case "ndjson": ndjson = true
            case let other?:
                throw APIError.badRequest(.invalidParameter, "format=\"\(other.prefix(64))\": expected json or ndjson")
            }
            let page = try await feed.page(
                after: call.query("after"), limit: call.query("limit"), bundleID: call.bundleID)
            guard ndjson else { return try call.json(page) }
            var headers: HTTPFields = [.contentType: "application/x-ndjson"]
            if let cursor = page.nextCursor { headers[Self.nextCursorHeader] = cursor }
            return Response(
                status: .ok, headers: headers,
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: try EventFeed.ndjson(page))))
        }
    }
}
