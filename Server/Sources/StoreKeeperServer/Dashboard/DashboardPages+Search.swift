import StoreKeeperAPI

/// The support desk's search box, on every page, and its results page.
extension DashboardPages {
    /// The search box on every page: an app user id, an alias, a transaction or order id, an email.
    static func customerSearchForm(_ text: String?) -> String {
        "<form method=\"get\" action=\"/dashboard/search\" role=\"search\"><input name=\"q\" "
            + "aria-label=\"Search customers\" placeholder=\"User, order id, transaction, email\" minlength=\"3\" "
            + "value=\"\(HTMLText.escape(text ?? ""))\" required> <button type=\"submit\">Search</button></form>"
    }

    /// A search's results: each customer a link to their page, with what matched.
    static func searchResults(_ text: String, _ response: SearchResponse) -> String {
        guard !response.results.isEmpty else {
            return "<p class=\"muted\">No customer of this project matches \(HTMLText.escape(text)).</p>"
        }
        var html = "<table><tr><th>Customer</th><th>Matched</th></tr>"
        for result in response.results {
            let link = "/dashboard/subscribers?id=" + APIPath.segment(result.appUserID)
            html +=
                "<tr><td><a href=\"\(HTMLText.escape(link))\">\(HTMLText.escape(result.appUserID))</a></td>"
                + "<td>\(HTMLText.escape(result.matched.replacingOccurrences(of: "_", with: " ")))</td></tr>"
        }
        return html + "</table>"
    }
}
