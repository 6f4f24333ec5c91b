import AppStoreModels
import Foundation
import Hummingbird
import StoreKeeperAPI
import StoreKeeperStorage
import SubscriptionEngine

/// The project's customers, filtered by where they stand now (`GET /v1/subscribers`): read in id order a bounded
/// stretch at a time, each evaluated by the engine at the server's clock.
struct SubscriberList: Sendable {
    let store: any EvidenceStore & MetricSource
    /// Where the attribute filter is read.
    let attributes: any AttributeStore
    let apps: AppDirectory
    let engine: SubscriptionEngine
    let now: @Sendable () -> Date

    /// The most customers one page holds, and how many when `limit` is not given.
    static let maximumLimit = 1_000
    static let defaultLimit = 100
    /// How many customers one page reads at most, as a multiple of its limit (a filter few match still answers
    /// in bounded time, with a cursor to go on).
    static let readFactor = 20

    /// The statuses a customer can be listed by, in the order a customer's own is chosen.
    static let statuses = ["active", "trial", "grace", "billing_retry", "expired", "revoked"]

    /// What a list asks for: every filter given must hold.
    struct Filter: Sendable {
        var status: String?
        var productID: String?
        var entitlement: String?
        var storefront: String?
        var environment: String?
        /// `attribute=name:value`: the customer holds this attribute with exactly this value.
        var attribute: (name: String, value: String)?
        /// `attribute_source=server|client|any`: who must have set it — the owner's backend by default (what the
        /// app sets anyone with its public key can set), `nil` for either.
        var attributeSource: AttributeSource? = .server

        /// The filters of a request.
        /// - Throws: ``ServiceError`` `invalid_parameter` naming a status or environment that is not one.
        init(_ query: (String) -> String?) throws(ServiceError) {
            status = query("status")
            if let status, !(SubscriberList.statuses + ["none"]).contains(status) {
                throw ServiceError.invalid(
                    .invalidParameter,
                    "status=\"\(status.prefix(64))\": expected \((SubscriberList.statuses + ["none"]).joined(separator: ", "))"
                )
            }
            environment = query("environment")
            if let environment, !["Production", "Sandbox", "Xcode"].contains(environment) {
                throw ServiceError.invalid(
                    .invalidParameter,
                    "environment=\"\(environment.prefix(64))\": expected Production, Sandbox or Xcode")
            }
            if let text = query("attribute") {
                guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else {
                    throw ServiceError.invalid(
                        .invalidParameter, "attribute=\"\(text.prefix(64))\": expected name:value (plan_interest:pro)")
                }
                attribute = (String(text[..<colon]), String(text[text.index(after: colon)...]))
            }
            switch query("attribute_source") {
            case nil, "server": attributeSource = .server
            case "client": attributeSource = .client
            case "any": attributeSource = nil
            case let other?:
                throw ServiceError.invalid(
                    .invalidParameter, "attribute_source=\"\(other.prefix(64))\": expected server, client or any")
            }
            productID = query("product_id")
            entitlement = query("entitlement")
            storefront = query("storefront")
        }

        /// Whether a customer in `state`, summarised as `summary`, matches.
        func matches(_ state: CustomerState, _ summary: SubscriberSummary) -> Bool {
            if let status, summary.status != status { return false }
            if let productID, !state.subscriptions.contains(where: { $0.productID == productID }) { return false }
            if let entitlement, !state.entitlements.contains(where: { $0.identifier == entitlement }) { return false }
            if let storefront, !state.subscriptions.contains(where: { $0.storefront == storefront }) { return false }
            if let environment, !state.subscriptions.contains(where: { $0.environment?.rawValue == environment }) {
                return false
            }
            return true
        }
    }

    /// The CSV header and one line per customer (`format=csv`).
    static let csvHeader =
        "app_user_id,status,product_id,entitlements,expires_at,storefront,environment,attribute_source\n"

    /// A customer as a CSV line (entitlements joined by spaces; an absent value empty).
    static func csvLine(_ summary: SubscriberSummary) -> String {
        [
            CSVField.quoted(summary.appUserID), summary.status, summary.productID.map(CSVField.quoted) ?? "",
            CSVField.quoted(summary.entitlements.joined(separator: " ")),
            summary.expiresAt.map { AppleDateFormat.rfc3339($0) } ?? "", summary.storefront.map(CSVField.quoted) ?? "",
            summary.environment ?? "", summary.attributeSource ?? "",
        ].joined(separator: ",") + "\n"
    }

    /// A customer's summary: their most telling subscription (by ``statuses``' order), entitlements now.
    static func summary(_ appUserID: String, _ state: CustomerState) -> SubscriberSummary {
        func status(_ subscription: SubscriptionState) -> String {
            switch subscription.status {
            case .active: subscription.offer?.kind == .freeTrial ? "trial" : "active"
            case .inGracePeriod: "grace"
            case .inBillingRetry: "billing_retry"
            case .expired: "expired"
            case .revoked: "revoked"
            }
        }
        let chosen = state.subscriptions.min {
            (statuses.firstIndex(of: status($0)) ?? statuses.count, $0.originalTransactionID)
                < (statuses.firstIndex(of: status($1)) ?? statuses.count, $1.originalTransactionID)
        }
        return SubscriberSummary(
            appUserID: appUserID, status: chosen.map(status) ?? "none", productID: chosen?.productID,
            entitlements: state.entitlements.map(\.identifier).sorted(), expiresAt: chosen?.expiresAt,
            storefront: chosen?.storefront, environment: chosen?.environment?.rawValue)
    }

    /// A page of customers matching `filter`, after `cursor` (an id a page handed out), at most `count`.
    /// - Throws: ``ServiceError`` `invalid_parameter` naming a cursor that is not one.
    func page(filter: Filter, cursor: String?, count: Int, bundleID: String) async throws -> SubscriberListResponse {
        let project = try apps.project(bundleID)
        if let cursor, cursor.isEmpty || cursor.utf8.count > 256 {
            throw ServiceError.invalid(.invalidParameter, "cursor: expected a next_cursor a page handed out")
        }
        let instant = now()
        let budget = count * Self.readFactor
        var found: [SubscriberSummary] = []
        var after = cursor.map(project.key)
        var read = 0
        var exhausted = false
        while found.count < count, read < budget, !exhausted {
            let asked = min(500, budget - read)
            let page = try await store.evidencePage(in: project, after: after, limit: asked)
            var consumed = 0
            // With an attribute asked for, who of this page holds it: one read for the page.
            var holders: [String: AttributeSource]?
            if let attribute = filter.attribute {
                holders = try await attributes.holders(
                    of: attribute.name, value: attribute.value, among: page.map(\.0), source: filter.attributeSource)
            }
            for (key, evidence) in page where found.count < count {
                consumed += 1
                after = key
                if let holders, holders[key] == nil { continue }
                let state = engine.evaluate(evidence, at: instant)
                var summary = Self.summary(ProjectScope.value(ofKey: key), state)
                summary.attributeSource = holders?[key]?.rawValue
                if filter.matches(state, summary) { found.append(summary) }
            }
            read += consumed
            // The project ends within this page, and every row of it was looked at.
            exhausted = page.count < asked && consumed == page.count
        }
        return SubscriberListResponse(
            subscribers: found, nextCursor: exhausted ? nil : after.map(ProjectScope.value(ofKey:)))
    }

    /// Every customer matching `filter` as CSV, read and written a page at a time. The first page is read before
    /// the answer starts, so a bad cursor is still refused with its status.
    func csv(filter: Filter, cursor: String?, bundleID: String) async throws -> ResponseBody {
        let first = try await page(filter: filter, cursor: cursor, count: Self.maximumLimit, bundleID: bundleID)
        return ResponseBody { writer in
            try await writer.write(ByteBuffer(string: Self.csvHeader))
            var page = first
            while true {
                try await writer.write(ByteBuffer(string: page.subscribers.map(Self.csvLine).joined()))
                guard let next = page.nextCursor else { break }
                page = try await self.page(filter: filter, cursor: next, count: Self.maximumLimit, bundleID: bundleID)
            }
            try await writer.finish(nil)
        }
    }
}
