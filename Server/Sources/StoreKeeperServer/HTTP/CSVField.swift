/// One field of a CSV answer, the one way the server writes them: quoted, inner quotes doubled, and text a
/// spreadsheet would run as a formula (starting `=`, `+`, `-`, `@`, tab or carriage return) prefixed with `'`, since
/// the text can come from a customer (an app user id).
enum CSVField {
    /// `text` as a quoted field.
    static func quoted(_ text: String) -> String {
        let safe = text.first.map { "=+-@\t\r".contains($0) } == true ? "'" + text : text
        return "\"" + safe.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
