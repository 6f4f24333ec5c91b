/// The `limit` query parameter of a paged answer, the one way it is read: absent is the default, anything but a
/// whole number in range is refused naming it.
enum PageLimit {
    /// The limit `text` asks for.
    /// - Throws: ``APIError`` `invalid_parameter` naming the value and the range.
    static func parse(_ text: String?, maximum: Int, default standard: Int) throws(APIError) -> Int {
        guard let text else { return standard }
        guard let count = Int(text), (1...maximum).contains(count) else {
            throw APIError.badRequest(.invalidParameter, "limit=\"\(text.prefix(64))\": expected 1 to \(maximum)")
        }
        return count
    }
}
