import AppStoreModels
import Foundation

/// Formats facts for explanations: dates as RFC 3339, reasons in words.
enum ExplanationFormat {
    static func date(_ date: Date?) -> String {
        date.map(AppleDateFormat.rfc3339) ?? "an unknown date"
    }

    static func reason(_ reason: RevocationReason?) -> String {
        switch reason {
        case .appIssue: "app issue"
        case .other: "other"
        case .unknown(let raw): "code \(raw)"
        case nil: "not given"
        }
    }

    static func offer(_ offer: Offer?) -> String {
        guard let offer else { return "" }
        let id = offer.identifier.map { " \"\($0)\"" } ?? ""
        switch offer.kind {
        case .freeTrial: return ", free trial\(id)"
        case .introPayAsYouGo: return ", introductory price (pay as you go)\(id)"
        case .introPayUpFront: return ", introductory price (pay up front)\(id)"
        case .introductory: return ", introductory offer\(id)"
        case .promotional: return ", promotional offer\(id)"
        case .offerCode: return ", offer code\(id)"
        case .winBack: return ", win-back offer\(id)"
        }
    }

    /// Apple's thousandths of a percent in words: 50000 → "50 %", 33333 → "33.333 %".
    static func percentage(_ milli: Int) -> String {
        let whole = milli / 1000
        let fraction = abs(milli % 1000)
        guard fraction != 0 else { return "\(whole) %" }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 3 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(whole).\(digits) %"
    }

    static func tagged(_ rule: SubscriptionRule, _ text: String) -> String { "[\(rule.rawValue)] \(text)" }
}
