/// Writes an event's detail (a flat map of strings, integers and booleans) as the JSON `JSONEncoder` with `.sortedKeys` writes for it —
/// the same bytes — without going through `Encodable`: it is written for every event, and the generic
/// encoder cost more than the rest of building the event.
enum EventDetailWriter {
    /// The detail as a JSON object, keys sorted, each value as its JSON type, strings escaped as `JSONEncoder`
    /// escapes them.
    /// - Parameter detail: The detail.
    /// - Returns: The JSON text.
    static func json(_ detail: [String: EventValue]) -> String {
        var object = SortedJSONObject()
        for (key, value) in detail {
            switch value {
            case .string(let text): object.add(key, text)
            case .integer(let number): object.add(key, number)
            case .boolean(let flag): object.add(key, flag)
            }
        }
        return String(decoding: object.bytes, as: UTF8.self)
    }
}
