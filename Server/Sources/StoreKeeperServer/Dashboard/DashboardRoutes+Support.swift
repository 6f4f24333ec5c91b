import AppStoreClient
import AppStoreModels
import AppStoreVerification
import Foundation
import Hummingbird
import StoreKeeperAPI

/// The support view's actions on a customer's page: each a form with the session's CSRF token and a ticked
/// confirmation, allowed to the scope of the API route it stands for, audited as a dashboard change.
extension DashboardRoutes {
    func addSupportRoutes(to router: Router<BasicRequestContext>) {
        addApplePage(to: router, path: "dashboard/subscribers/app-transaction", title: "App transaction") {
            try await appTransaction(of: $0, bundleID: $1)
        } draw: { id, found, problem in
            DashboardPages.appTransaction(appUserID: id, found ?? nil, problem: problem)
        }
        addApplePage(to: router, path: "dashboard/subscribers/refunds", title: "Refund history") {
            try await refundHistory(of: $0, bundleID: $1)
        } draw: { id, refunded, problem in
            DashboardPages.refundHistory(appUserID: id, refunded ?? [], problem: problem)
        }
        addSupportAction(
            to: router, path: "dashboard/subscribers/grant", endpoint: .postGrant, doing: "Granting access",
            nothing: "Nothing was granted.", confirm: "Tick the confirmation to grant access without a purchase."
        ) { fields, session, request in
            let (id, entitlement) = (fields["id"] ?? "", fields["entitlement"] ?? "")
            let body = GrantPost(
                duration: fields["duration"], reason: fields["reason"].flatMap { $0.isEmpty ? nil : $0 })
            let project = try subscribers.apps.project(session.bundleID)
            _ = try await audited(
                .postGrant, session: session, request: request, body: try JSONEncoder().encode(body),
                target: AuditNote.customer(id, in: project) + " entitlement=" + entitlement
            ) { try await grants.grant(body, appUserID: id, entitlement: entitlement, bundleID: session.bundleID) }
            return "/dashboard/subscribers?id=\(APIPath.segment(id))&granted=1"
        }
        addSupportAction(
            to: router, path: "dashboard/subscribers/revoke", endpoint: .deleteGrant, doing: "Revoking a grant",
            nothing: "Nothing was revoked.", confirm: "Tick the confirmation to revoke the grant."
        ) { fields, session, request in
            let (id, entitlement) = (fields["id"] ?? "", fields["entitlement"] ?? "")
            let project = try subscribers.apps.project(session.bundleID)
            _ = try await audited(
                .deleteGrant, session: session, request: request, body: Data(),
                target: AuditNote.customer(id, in: project) + " entitlement=" + entitlement
            ) { try await grants.revoke(appUserID: id, entitlement: entitlement, bundleID: session.bundleID) }
            return "/dashboard/subscribers?id=\(APIPath.segment(id))&done=revoked"
        }
        addSupportAction(
            to: router, path: "dashboard/subscribers/extend", endpoint: .postExtension,
            doing: "Extending a subscription", nothing: "Nothing was extended.",
            confirm: "Tick the confirmation to ask Apple to extend the subscription."
        ) { fields, session, request in
            let (id, original) = (fields["id"] ?? "", fields["original_transaction_id"] ?? "")
            let body = ExtensionPost(days: fields["days"].flatMap { Int($0) }, reason: fields["reason"])
            let project = try subscribers.apps.project(session.bundleID)
            _ = try await audited(
                .postExtension, session: session, request: request, body: try JSONEncoder().encode(body),
                target: AuditNote.customer(id, in: project) + " original_transaction_id=" + original
            ) {
                try await extensions.extend(
                    body, appUserID: id, originalTransactionID: original, bundleID: session.bundleID)
            }
            return "/dashboard/subscribers?id=\(APIPath.segment(id))&done=extended"
        }
        addSupportAction(
            to: router, path: "dashboard/subscribers/erase", endpoint: .deleteSubscriber, doing: "Erasing a customer",
            nothing: "Nothing was erased.",
            confirm: "Tick the confirmation to erase everything held about the customer."
        ) { fields, session, request in
            let id = fields["id"] ?? ""
            let project = try subscribers.apps.project(session.bundleID)
            _ = try await audited(
                .deleteSubscriber, session: session, request: request, body: Data(),
                target: AuditNote.customer(id, in: project)
            ) { try await data.erase(appUserID: id, bundleID: session.bundleID) }
            return "/dashboard/subscribers?done=erased"
        }
    }

    /// A support action a customer's page posts to `path`: refused without the session's CSRF token (403), to a
    /// key whose scope does not include `endpoint`'s (403) and without the ticked confirmation (400); then
    /// `perform` makes the change (audited as `endpoint`) and answers where to go next. A service's refusal is
    /// shown with `nothing` (what did not happen).
    func addSupportAction(
        to router: Router<BasicRequestContext>, path: String, endpoint: APIEndpoint, doing: String, nothing: String,
        confirm: String,
        perform: @escaping @Sendable ([String: String], DashboardSessions.Session, Request) async throws -> String
    ) {
        router.post(RouterPath(path)) { request, _ in
            try await withSession(request) { _, session in
                let fields = HTMLText.formFields(try await Self.formBody(request))
                guard fields["csrf"] == session.csrf else { return Self.forbidden() }
                if let refusal = Self.scopeRefusal(endpoint, session, doing, nothing) { return refusal }
                guard fields["confirm"] == "yes" else {
                    return Self.page(
                        DashboardPages.message(title: "Not confirmed", text: confirm + " " + nothing),
                        status: .badRequest)
                }
                do {
                    return Self.redirect(try await perform(fields, session, request))
                } catch let error as ServiceError {
                    return Self.page(
                        DashboardPages.message(title: "Not done", text: error.message + " " + nothing),
                        status: .badRequest)
                }
            }
        }
    }

    /// A page at `path` that asks Apple about the customer the request's `id` names: `fetch`'s answer (given the id
    /// and the session's app) drawn by `draw`, or the service's refusal drawn in its place (Apple down, a signature
    /// that does not verify).
    func addApplePage<Answer: Sendable>(
        to router: Router<BasicRequestContext>, path: String, title: String,
        fetch: @escaping @Sendable (String, String) async throws -> Answer,
        draw: @escaping @Sendable (_ id: String, Answer?, _ problem: String?) -> String
    ) {
        router.get(RouterPath(path)) { request, _ in
            try await withSession(request) { _, session in
                let id = request.uri.queryParameters.get("id").map { String($0) } ?? ""
                var answer: Answer?
                var problem: String?
                do {
                    answer = try await fetch(id, session.bundleID)
                } catch let error as ServiceError {
                    problem = error.message
                }
                return Self.page(
                    DashboardPages.layout(title: title, session: session, body: draw(id, answer, problem)))
            }
        }
    }

    /// Apple's refund history of each of the customer's purchases (Get Refund History, every page), each signed
    /// transaction verified, newest refund first.
    func refundHistory(of appUserID: String, bundleID: String) async throws -> [JWSTransactionDecodedPayload] {
        let project = try subscribers.apps.project(bundleID)
        let originals = Set(try await transactions(of: appUserID, bundleID: bundleID).map(\.originalTransactionID))
        var refunded: [JWSTransactionDecodedPayload] = []
        let call = "Get Refund History"
        for original in originals.sorted() {
            // The first page finds the app whose Apple knows the purchase; later pages ask that app.
            let (app, credentials, first) = try await purchases.askApple(call, about: original, in: project) {
                try await purchases.intake.client.refundHistory(transactionID: original, revision: nil, credentials: $0)
            }
            var answer = first
            for page in 1...Self.refundHistoryPages {
                for token in answer.signedTransactions ?? [] {
                    refunded.append(try await PurchaseSupport.verifiedTransaction(token, app: app, from: call))
                }
                guard answer.hasMore == true, page < Self.refundHistoryPages else { break }
                do {
                    answer = try await purchases.intake.client.refundHistory(
                        transactionID: original, revision: answer.revision, credentials: credentials)
                } catch let error as AppStoreClientError {
                    throw ServiceError.apple(error, call: call)
                }
            }
        }
        return refunded.sorted { ($0.revocationDate ?? .distantPast) > ($1.revocationDate ?? .distantPast) }
    }

    /// Apple's app transaction of the customer (Get App Transaction Info, asked with their newest purchase),
    /// verified; `nil` when the customer has no purchase.
    func appTransaction(of appUserID: String, bundleID: String) async throws -> AppTransactionDecodedPayload? {
        let project = try subscribers.apps.project(bundleID)
        let newest = try await transactions(of: appUserID, bundleID: bundleID)
            .max { ($0.purchaseDate ?? .distantPast) < ($1.purchaseDate ?? .distantPast) }
        guard let newest else { return nil }
        let (app, _, answer) = try await purchases.askApple(
            "Get App Transaction Info", about: newest.originalTransactionID, in: project
        ) { credentials in
            try await purchases.intake.client.appTransactionInfo(
                transactionID: newest.transactionID, credentials: credentials)
        }
        guard let token = answer.signedAppTransactionInfo else { return nil }
        do {
            return try await app.signedData.verifyAppTransaction(token)
        } catch let error as VerificationError {
            throw ServiceError.unverifiable(APIErrorCode(error.code), "Apple's app transaction: \(error.reason)")
        }
    }

    /// The most pages of Apple's refund history read per purchase (20 refunds a page).
    static let refundHistoryPages = 10
}
