import AppStoreModels
import Foundation
import StoreKeeperAPI
import StoreKeeperWire
import SubscriptionEngine

/// The support view's parts of a customer's page: every purchase with its price and the lifetime spend, the grants
/// support gave, and the forms that grant, revoke, extend and erase (each behind the session's CSRF token and a
/// confirmation box; shown to a session whose key's scope includes the route's).
extension DashboardPages {
    /// The durations the grant form offers, as the API names them.
    static let grantDurations = ["P3D", "P1W", "P1M", "P3M", "P6M", "P1Y", "lifetime"]

    /// Every purchase the customer made (each transaction: a first purchase, each renewal), newest first, with its
    /// price, and the lifetime spend per currency — refunded transactions not counted.
    static func purchases(_ transactions: [Transaction]) -> String {
        guard !transactions.isEmpty else { return "" }
        let ordered = transactions.sorted { ($0.purchaseDate ?? .distantPast) > ($1.purchaseDate ?? .distantPast) }
        var spend: [String: Int64] = [:]
        var html =
            "<h3>Purchases</h3><table class=\"purchases\"><tr><th>date</th><th>product</th><th>transaction</th>"
            + "<th>price</th><th></th></tr>"
        for transaction in ordered {
            let price = transaction.price.map { Self.money($0, transaction.currency) } ?? ""
            if transaction.revokedAt == nil, let amount = transaction.price, let currency = transaction.currency {
                spend[currency, default: 0] += amount
            }
            html +=
                "<tr><td>\(transaction.purchaseDate.map(AppleDateFormat.rfc3339) ?? "")</td>"
                + "<td>\(HTMLText.escape(transaction.productID))</td>"
                + "<td>\(HTMLText.escape(transaction.transactionID))</td><td>\(HTMLText.escape(price))</td>"
                + "<td>\(transaction.revokedAt == nil ? "" : "refunded")</td></tr>"
        }
        let total = spend.keys.sorted().map { Self.money(spend[$0] ?? 0, $0) }.joined(separator: ", ")
        return html + "</table><p class=\"spend\">Lifetime spend: \(HTMLText.escape(total.isEmpty ? "none" : total))"
            + " (refunds taken back)</p>"
    }

    /// `milliunits` of `currency` as text: `9.99 USD`.
    static func money(_ milliunits: Int64, _ currency: String?) -> String {
        let sign = milliunits < 0 ? "-" : ""
        let cents = (abs(milliunits) + 5) / 10
        return "\(sign)\(cents / 100).\(String(format: "%02d", Int(cents % 100))) \(currency ?? "")"
            .trimmingCharacters(in: .whitespaces)
    }

    /// The links that ask Apple, on demand, for the customer's refund history and app transaction.
    static func appleLinks(_ appUserID: String) -> String {
        let id = APIPath.segment(appUserID)
        return "<p><a href=\"\(HTMLText.escape("/dashboard/subscribers/refunds?id=" + id))\">"
            + "Ask Apple for the refund history</a> · "
            + "<a href=\"\(HTMLText.escape("/dashboard/subscribers/app-transaction?id=" + id))\">"
            + "Ask Apple for the app transaction</a></p>"
    }

    /// Apple's app transaction of a customer (verified), or why it could not be read.
    static func appTransaction(appUserID: String, _ found: AppTransactionDecodedPayload?, problem: String?)
        -> String
    {
        let back = "/dashboard/subscribers?id=" + APIPath.segment(appUserID)
        let html = "<p><a href=\"\(HTMLText.escape(back))\">\(HTMLText.escape(appUserID))</a></p>"
        if let problem { return html + "<p class=\"error\" role=\"alert\">\(HTMLText.escape(problem))</p>" }
        guard let found else { return html + "<p class=\"muted\">No purchase to ask Apple with.</p>" }
        let rows: [(String, String?)] = [
            ("app transaction id", found.appTransactionId), ("bundle id", found.bundleId),
            ("environment", (found.environment ?? found.receiptType)?.rawValue),
            ("original purchase", found.originalPurchaseDate.map(AppleDateFormat.rfc3339)),
            ("original version", found.originalApplicationVersion), ("version", found.applicationVersion),
            ("original platform", found.originalPlatform),
        ]
        return html + "<table class=\"app-transaction\">"
            + rows.map { "<tr><th>\($0.0)</th><td>\(HTMLText.escape($0.1 ?? ""))</td></tr>" }.joined() + "</table>"
    }

    /// Apple's refund history of a customer (its signed transactions, verified), or why it could not be read.
    static func refundHistory(appUserID: String, _ refunded: [JWSTransactionDecodedPayload], problem: String?)
        -> String
    {
        let back = "/dashboard/subscribers?id=" + APIPath.segment(appUserID)
        var html = "<p><a href=\"\(HTMLText.escape(back))\">\(HTMLText.escape(appUserID))</a></p>"
        if let problem { return html + "<p class=\"error\" role=\"alert\">\(HTMLText.escape(problem))</p>" }
        guard !refunded.isEmpty else { return html + "<p class=\"muted\">Apple lists no refund.</p>" }
        html +=
            "<table class=\"refunds\"><tr><th>refunded</th><th>product</th><th>transaction</th><th>price</th>"
            + "<th>reason</th></tr>"
        for transaction in refunded {
            let reason =
                switch transaction.revocationReason {
                case .appIssue?: "app issue"
                case .other?: "other"
                case .unknown(let code)?: "code \(code)"
                case nil: ""
                }
            html +=
                "<tr><td>\(transaction.revocationDate.map(AppleDateFormat.rfc3339) ?? "")</td>"
                + "<td>\(HTMLText.escape(transaction.productId))</td><td>\(HTMLText.escape(transaction.transactionId))</td>"
                + "<td>\(HTMLText.escape(transaction.price.map { money($0, transaction.currency) } ?? ""))</td>"
                + "<td>\(reason)</td></tr>"
        }
        return html + "</table>"
    }

    /// The customer's grants, newest first, with a revoke form for each entitlement a grant gives now (to a
    /// session whose key may revoke).
    static func grants(_ grants: [Grant], appUserID: String, session: DashboardSessions.Session) -> String {
        guard !grants.isEmpty else { return "" }
        var html = "<h3>Grants</h3><table><tr><th>entitlement</th><th>granted</th><th>until</th><th>why</th></tr>"
        for grant in grants.reversed() {
            html +=
                "<tr><td>\(HTMLText.escape(grant.entitlement))\(grant.active ? "" : " (ended)")</td>"
                + "<td>\(AppleDateFormat.rfc3339(grant.grantedAt))</td>"
                + "<td>\(grant.expiresAt.map(AppleDateFormat.rfc3339) ?? "forever")</td>"
                + "<td>\(HTMLText.escape(grant.reason ?? ""))</td></tr>"
        }
        html += "</table>"
        for entitlement in Set(grants.filter(\.active).map(\.entitlement)).sorted() {
            html += supportForm(
                "revoke", endpoint: .deleteGrant, session: session,
                hidden: [("id", appUserID), ("entitlement", entitlement)], fields: "",
                confirm: "Revoke the grants of \(HTMLText.escape(entitlement)) in force",
                button: "Revoke \(HTMLText.escape(entitlement))")
        }
        return html
    }

    /// The reasons Apple takes for an extension, as the API names them.
    static let extensionReasons = ["service_issue", "customer_satisfaction", "other", "undeclared"]

    /// A form per active subscription asking Apple to extend its renewal date by 1–90 days (to a session whose
    /// key may).
    static func extendForms(_ subscriber: Subscriber, session: DashboardSessions.Session) -> String {
        let active = subscriber.subscriptions.filter { $0.status == "active" || $0.status == "inGracePeriod" }
        let reasons = extensionReasons.map { "<option value=\"\($0)\">\($0)</option>" }.joined()
        return active.map { subscription in
            supportForm(
                "extend", endpoint: .postExtension, session: session,
                hidden: [
                    ("id", subscriber.appUserID), ("original_transaction_id", subscription.originalTransactionID),
                ],
                fields: "<label>Days <input name=\"days\" type=\"number\" min=\"1\" max=\"90\" value=\"7\" required>"
                    + "</label> <label>Why <select name=\"reason\">\(reasons)</select></label> ",
                confirm: "Ask Apple to move the renewal date of \(HTMLText.escape(subscription.productID))",
                button: "Extend \(HTMLText.escape(subscription.productID))", title: "Extend a subscription")
        }.joined()
    }

    /// The form that erases the customer (to a session whose key may).
    static func eraseForm(appUserID: String, session: DashboardSessions.Session) -> String {
        supportForm(
            "erase", endpoint: .deleteSubscriber, session: session, hidden: [("id", appUserID)], fields: "",
            confirm: "Erase everything StoreKeeper holds about this customer; it cannot be undone",
            button: "Erase", title: "Erase the customer")
    }

    /// What the last support action did, from the page's `done` parameter (nothing for another value).
    static func done(_ action: String?) -> String {
        let said = ["revoked": "Revoked.", "extended": "Extended.", "erased": "Erased."]
        return action.flatMap { said[$0] }.map { "<p class=\"saved\">\($0)</p>" } ?? ""
    }

    /// A support action's form, posted to `/dashboard/subscribers/<action>` with the session's CSRF token, the
    /// `hidden` fields, `fields` and a required confirmation box; or, to a session whose key's scope does not
    /// include `endpoint`'s, nothing.
    static func supportForm(
        _ action: String, endpoint: APIEndpoint, session: DashboardSessions.Session, hidden: [(String, String)],
        fields: String, confirm: String, button: String, title: String? = nil
    ) -> String {
        guard let needed = endpoint.scope, session.scope.includes(needed) else { return "" }
        let inputs = ([("csrf", session.csrf)] + hidden).map {
            "<input type=\"hidden\" name=\"\($0.0)\" value=\"\(HTMLText.escape($0.1))\">"
        }.joined()
        return (title.map { "<h3>\($0)</h3>" } ?? "")
            + "<form class=\"\(action)\" method=\"post\" action=\"/dashboard/subscribers/\(action)\">\(inputs)\(fields)"
            + "<label><input type=\"checkbox\" name=\"confirm\" value=\"yes\" required> \(confirm)</label> "
            + "<button type=\"submit\">\(button)</button></form>"
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
        return supportForm(
            "grant", endpoint: .postGrant, session: session, hidden: [("id", appUserID)],
            fields:
                "<label>Entitlement <select name=\"entitlement\">\(options(entitlements, entitlements[0]))</select></label> "
                + "<label>For <select name=\"duration\">\(options(grantDurations, "P1W"))</select></label> "
                + "<label>Why <input name=\"reason\" maxlength=\"500\" size=\"40\"></label> ",
            confirm: "Give this customer access without a purchase", button: "Grant", title: "Grant access")
    }
}
