import AppStoreModels
import Foundation
import StoreKeeperAPI

/// The customer list on the dashboard's Subscribers page: filters, one page of customers, the next page and the
/// CSV of every match.
extension DashboardPages {
    /// The filters a customer list takes, in the order the form shows them.
    static let customerFilters = ["status", "product_id", "entitlement", "storefront", "environment"]

    /// The filter form, with the values asked.
    static func customerFilterForm(_ values: [String: String]) -> String {
        var html = "<form method=\"get\" action=\"/dashboard/subscribers\"><label>Status <select name=\"status\">"
        html += "<option value=\"\">any</option>"
        for status in SubscriberList.statuses + ["none"] {
            let selected = values["status"] == status ? " selected" : ""
            html += "<option\(selected)>\(status)</option>"
        }
        html += "</select></label> "
        for name in customerFilters.dropFirst() {
            html +=
                "<label>\(name.replacingOccurrences(of: "_", with: " ")) <input name=\"\(name)\" value=\""
                + HTMLText.escape(values[name] ?? "") + "\" size=\"14\"></label> "
        }
        return html + "<button type=\"submit\">Filter</button></form>"
    }

    /// A query string of the filters asked (and `extra`), for links.
    static func customerQuery(_ values: [String: String], extra: [(String, String)] = []) -> String {
        let pairs = customerFilters.compactMap { name in values[name].map { (name, $0) } } + extra
        return pairs.isEmpty
            ? ""
            : "?"
                + pairs.map { APIPath.segment($0.0) + "=" + APIPath.segment($0.1) }
                .joined(separator: "&")
    }

    /// One page of customers as a table, with the next page's link and the CSV of every match.
    static func customerTable(_ page: SubscriberListResponse, filters values: [String: String]) -> String {
        var html =
            "<p><a href=\"/dashboard/subscribers.csv\(HTMLText.escape(customerQuery(values)))\">Download CSV</a>"
            + " (every customer that matches)</p>"
        if page.subscribers.isEmpty {
            html += "<p class=\"muted\">No customer on this page matches.</p>"
        } else {
            html +=
                "<table class=\"customers\"><tr><th>app user id</th><th>status</th><th>product</th><th>entitlements</th>"
                + "<th>expires</th><th>storefront</th><th>environment</th></tr>"
            for customer in page.subscribers {
                let link = "/dashboard/subscribers?id=" + APIPath.segment(customer.appUserID)
                html +=
                    "<tr><td><a href=\"\(HTMLText.escape(link))\">\(HTMLText.escape(customer.appUserID))</a></td>"
                    + "<td>\(customer.status)</td><td>\(HTMLText.escape(customer.productID ?? ""))</td>"
                    + "<td>\(HTMLText.escape(customer.entitlements.joined(separator: ", ")))</td>"
                    + "<td>\(customer.expiresAt.map(AppleDateFormat.rfc3339) ?? "")</td>"
                    + "<td>\(HTMLText.escape(customer.storefront ?? ""))</td>"
                    + "<td>\(HTMLText.escape(customer.environment ?? ""))</td></tr>"
            }
            html += "</table>"
        }
        if let next = page.nextCursor {
            html +=
                "<p><a href=\"/dashboard/subscribers\(HTMLText.escape(customerQuery(values, extra: [("cursor", next)])))\">"
                + "Next page</a></p>"
        }
        return html
    }
}
