import AppStoreModels
import Foundation
import StoreKeeperAPI
import StoreKeeperWire

/// The support view's parts of a customer's page: the grants support gave, and the form that gives one (behind the
/// session's CSRF token and a confirmation box; shown to a session whose key may grant).
extension DashboardPages {
    /// The durations the grant form offers, as the API names them.
    static let grantDurations = ["P3D", "P1W", "P1M", "P3M", "P6M", "P1Y", "lifetime"]

    /// The customer's grants, newest first.
    static func grants(_ grants: [Grant]) -> String {
        guard !grants.isEmpty else { return "" }
        var html = "<h3>Grants</h3><table><tr><th>entitlement</th><th>granted</th><th>until</th><th>why</th></tr>"
        for grant in grants.reversed() {
            html +=
                "<tr><td>\(HTMLText.escape(grant.entitlement))\(grant.active ? "" : " (ended)")</td>"
                + "<td>\(AppleDateFormat.rfc3339(grant.grantedAt))</td>"
                + "<td>\(grant.expiresAt.map(AppleDateFormat.rfc3339) ?? "forever")</td>"
                + "<td>\(HTMLText.escape(grant.reason ?? ""))</td></tr>"
        }
        return html + "</table>"
    }

    /// The form that grants `appUserID` one of `entitlements` (posted to `/dashboard/subscribers/grant`), or why
    /// this session cannot.
    static func grantForm(appUserID: String, entitlements: [String], session: DashboardSessions.Session) -> String {
        guard let needed = APIEndpoint.postGrant.scope, session.scope.includes(needed) else {
            return "<p class=\"muted\">Granting access needs a secret key of scope support.</p>"
        }
        guard !entitlements.isEmpty else { return "<p class=\"muted\">The catalog defines no entitlement.</p>" }
        let options = { (values: [String], selected: String) in
            values.map { value in
                "<option value=\"\(HTMLText.escape(value))\"\(value == selected ? " selected" : "")>"
                    + "\(HTMLText.escape(value))</option>"
            }.joined()
        }
        return "<h3>Grant access</h3><form class=\"grant\" method=\"post\" action=\"/dashboard/subscribers/grant\">"
            + "<input type=\"hidden\" name=\"csrf\" value=\"\(HTMLText.escape(session.csrf))\">"
            + "<input type=\"hidden\" name=\"id\" value=\"\(HTMLText.escape(appUserID))\">"
            + "<label>Entitlement <select name=\"entitlement\">\(options(entitlements, entitlements[0]))</select></label> "
            + "<label>For <select name=\"duration\">\(options(grantDurations, "P1W"))</select></label> "
            + "<label>Why <input name=\"reason\" maxlength=\"500\" size=\"40\"></label> "
            + "<label><input type=\"checkbox\" name=\"confirm\" value=\"yes\" required> "
            + "Give this customer access without a purchase</label> <button type=\"submit\">Grant</button></form>"
    }
}
