/// Writes an event's detail (a flat string map) as the JSON `JSONEncoder` with `.sortedKeys` writes for it —
/// the same bytes — without going through `Encodable`: it is written for every event, and the generic
/// encoder cost more than the rest of building the event.
enum EventDetailWriter {
    /// The detail as a JSON object, keys sorted, strings escaped as `JSONEncoder` escapes them.
    /// - Parameter detail: The detail.
    /// - Returns: The JSON text.
    static func json(_ detail: [String: String]) -> String {
        var object = SortedJSONObject()
        for (key, value) in detail { object.add(key, value) }
        return String(decoding: object.bytes, as: UTF8.self)
    }
}
