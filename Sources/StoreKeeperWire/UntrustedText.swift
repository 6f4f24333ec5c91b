/// How an error names a value it did not choose (a JWS header's `alg`, a claimed bundle id): the value itself when
/// it is short and plain, otherwise only its size, so a refusal shown to an operator (the notification log, the
/// dashboard) never carries an attacker's markup, bidi controls or look-alike text.
public enum UntrustedText {
    /// The longest value shown as it is, in scalars.
    public static let longestShown = 64

    /// `text` quoted when it is 1–``longestShown`` scalars of `A–Z a–z 0–9 . _ - + / :`; otherwise a description
    /// of its size (`a 312-byte value, not shown`), or `missing` for `nil`.
    /// - Parameter text: The value as received.
    /// - Returns: Text safe to put in an error message.
    public static func quoted(_ text: String?) -> String {
        guard let text else { return "missing" }
        let scalars = text.unicodeScalars
        let plain =
            !scalars.isEmpty && scalars.count <= longestShown
            && scalars.allSatisfy { scalar in
                switch scalar.value {
                case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2E, 0x5F, 0x2D, 0x2B, 0x2F, 0x3A: true
                default: false
                }
            }
        return plain ? "\"" + text + "\"" : "a \(text.utf8.count)-byte value, not shown"
    }
}
