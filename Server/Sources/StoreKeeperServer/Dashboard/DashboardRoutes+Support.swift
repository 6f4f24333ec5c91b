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
        router.post("dashboard/subscribers/grant") { request, _ in
            try await withSession(request) { _, session in
                let fields = HTMLText.formFields(try await Self.formBody(request))
                guard fields["csrf"] == session.csrf else { return Self.forbidden() }
                let endpoint = APIEndpoint.postGrant
                if let refusal = Self.scopeRefusal(endpoint, session, "Granting access", "Nothing was granted.") {
                    return refusal
                }
                let id = fields["id"] ?? ""
                guard fields["confirm"] == "yes" else {
                    let text = "Tick the confirmation to grant access without a purchase. Nothing was granted."
                    return Self.page(DashboardPages.message(title: "Not confirmed", text: text), status: .badRequest)
                }
                let entitlement = fields["entitlement"] ?? ""
                let reason = fields["reason"].flatMap { $0.isEmpty ? nil : $0 }
                let body = GrantPost(duration: fields["duration"], reason: reason)
                do {
                    let project = try subscribers.apps.project(session.bundleID)
                    _ = try await audited(
                        endpoint, session: session, request: request, body: try JSONEncoder().encode(body),
                        target: AuditNote.customer(id, in: project) + " entitlement=" + entitlement
                    ) {
                        try await grants.grant(
                            body, appUserID: id, entitlement: entitlement, bundleID: session.bundleID)
                    }
                } catch let error as ServiceError {
                    return Self.page(
                        DashboardPages.message(title: "Not granted", text: error.message + " Nothing was granted."),
                        status: .badRequest)
                }
                return Self.redirect("/dashboard/subscribers?id=\(APIPath.segment(id))&granted=1")
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
