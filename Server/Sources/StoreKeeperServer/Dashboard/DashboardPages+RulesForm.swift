import Foundation

/// The rules editor's form, or — for a key whose scope does not edit rules — the rules read-only.
extension DashboardPages {
    /// The form posting `text` (JSON rules) to `action` with the session's `csrf` token; without a token, the
    /// rules as text and a note that the key's scope does not edit them.
    static func rulesForm(action: String, text: String, csrf: String?) -> String {
        guard let csrf else {
            return "<p class=\"muted\">This key's scope reads these rules; editing them needs an admin key.</p>"
                + "<pre class=\"rules\">\(HTMLText.escape(text))</pre>"
        }
        return "<form method=\"post\" action=\"\(action)\"><input type=\"hidden\" name=\"csrf\" value=\"\(csrf)\">"
            + "<textarea name=\"rules\" rows=\"12\" cols=\"100\" spellcheck=\"false\">\(HTMLText.escape(text))</textarea>"
            + "<br><button type=\"submit\">Save rules</button></form>"
    }
}
