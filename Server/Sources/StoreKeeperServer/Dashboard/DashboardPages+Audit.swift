import AppStoreModels
import StoreKeeperAPI

/// The Audit page: who changed what, a page of the log at a time.
extension DashboardPages {
    /// A page of the audit log, oldest first, with a link to the next page when it is full.
    static func audit(_ page: AuditLogResponse, full: Bool) -> String {
        guard !page.entries.isEmpty else {
            return "<p class=\"muted\">No change has been made with a secret key or here since the log began.</p>"
        }
        var html =
            "<p>Every change made with a secret key or through this dashboard: who (a fingerprint of the key), from "
            + "where, the route, what it was about (a customer by a hash of their id) and the request in brief.</p>"
            + "<table><tr><th>When</th><th>Who</th><th>Address</th><th>Route</th><th>Target</th><th>Change</th></tr>"
        for entry in page.entries {
            html +=
                "<tr><td>\(AppleDateFormat.rfc3339(entry.at))</td><td>\(HTMLText.escape(entry.actor))</td>"
                + "<td>\(HTMLText.escape(entry.address ?? ""))</td><td>\(HTMLText.escape(entry.route))</td>"
                + "<td>\(HTMLText.escape(entry.target ?? ""))</td><td>\(HTMLText.escape(entry.summary))</td></tr>"
        }
        html += "</table>"
        if full, let next = page.nextCursor {
            html +=
                "<p><a href=\"/dashboard/audit?after=\(HTMLText.escape(APIPath.segment(next)))\">Later changes</a></p>"
        }
        return html
    }
}
