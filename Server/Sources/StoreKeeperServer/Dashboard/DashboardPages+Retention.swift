import StoreKeeperAPI

/// The Retention page: the rules that answer Apple when a customer may cancel, one line each, and their editor.
extension DashboardPages {
    /// The page.
    static func retention(_ rules: RetentionRules, text: String, csrf: String, error: String?, saved: Bool) -> String {
        var html =
            "<h2>Rules</h2><p class=\"muted\">Apple asks which retention message to show a customer about to cancel; "
            + "the first rule that matches and may answer chooses (docs/retention.md).</p>"
        if rules.rules.isEmpty {
            html += "<p class=\"muted\">No rules yet: Apple shows each product's default message.</p>"
        } else {
            html += "<table class=\"retention\"><tr><th>rule</th><th>answer</th><th>message</th></tr>"
            for rule in rules.rules {
                let detail =
                    rule.respond.alternateProduct.map { " → " + $0.productID }
                    ?? rule.respond.promotionalOffer.map { " " + $0.offerID } ?? ""
                html +=
                    "<tr><td>\(HTMLText.escape(rule.identifier))</td>"
                    + "<td>\(HTMLText.escape(rule.respond.kind + detail))</td>"
                    + "<td>\(HTMLText.escape(rule.respond.messageID ?? ""))</td></tr>"
            }
            html += "</table>"
        }
        if let error { html += "<p class=\"error\" role=\"alert\">\(HTMLText.escape(error))</p>" }
        if saved { html += "<p role=\"status\">Saved.</p>" }
        html +=
            "<form method=\"post\" action=\"/dashboard/retention\"><input type=\"hidden\" name=\"csrf\" value=\"\(csrf)\">"
            + "<textarea name=\"rules\" rows=\"12\" cols=\"100\" spellcheck=\"false\">\(HTMLText.escape(text))</textarea>"
            + "<br><button type=\"submit\">Save rules</button></form>"
        return html
    }
}
