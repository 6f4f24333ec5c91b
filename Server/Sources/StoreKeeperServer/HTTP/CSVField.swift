/// One field of a CSV answer, the one way the server writes them: quoted, inner quotes doubled, and text a
/// spreadsheet would run as a formula (starting `=`, `+`, `-`, `@`, tab or carriage return) prefixed with `'`, since
/// the text can come from a customer (an app user id).
///
/// Both checks read Unicode scalars, as a CSV reader does: a `"` followed by a combining mark is one Swift
/// `Character` unequal to `"`, and would otherwise end the field unseen.
enum CSVField {
    /// The scalars that make a spreadsheet read a cell as a formula when they open it.
    static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]

    /// `text` as a quoted field.
    static func quoted(_ text: String) -> String {
        var field = String.UnicodeScalarView()
        field.append("\"")
        if let first = text.unicodeScalars.first, formulaStarts.contains(first) { field.append("'") }
        for scalar in text.unicodeScalars {
            if scalar == "\"" { field.append("\"") }
            field.append(scalar)
        }
        field.append("\"")
        return String(field)
    }
}
