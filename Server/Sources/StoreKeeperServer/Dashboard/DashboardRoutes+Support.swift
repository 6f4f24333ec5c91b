import AppStoreModels
import AppStoreVerification
import Foundation
import Hummingbird
import StoreKeeperAPI

/// The support view's actions on a customer's page: each a form with the session's CSRF token and a ticked
/// confirmation, allowed to the scope of the API route it stands for, audited as a dashboard change.
extension DashboardRoutes {
    func addSupportRoutes(to router: Router<BasicRequestContext>) {
        router.get("dashboard/subscribers/app-transaction") { request, _ in
            try await withSession(request) { _, session in
                let id = request.uri.queryParameters.get("id").map { String($0) } ?? ""
                var found: AppTransactionDecodedPayload?
                var problem: String?
                do {
                    found = try await appTransaction(of: id, bundleID: session.bundleID)
                } catch let error as ServiceError {
                    problem = error.message
                }
                return Self.page(
                    DashboardPages.layout(
                        title: "App transaction", session: session,
                        body: DashboardPages.appTransaction(appUserID: id, found, problem: problem)))
            }
        }
        router.get("dashboard/subscribers/refunds") { request, _ in
            try await withSession(request) { _, session in
                let id = request.uri.queryParameters.get("id").map { String($0) } ?? ""
                var refunded: [JWSTransactionDecodedPayload] = []
                var problem: String?
                do {
                    refunded = try await refundHistory(of: id, bundleID: session.bundleID)
                } catch let error as ServiceError {
                    problem = error.message
                }
                return Self.page(
                    DashboardPages.layout(
                        title: "Refund history", session: session,
                        body: DashboardPages.refundHistory(appUserID: id, refunded, problem: problem)))
            }
        }
        router.post("dashboard/subscribers/grant") { request, _ in
            try await withSession(request) { _, session in
                let fields = HTMLText.formFields(try await Self.formBody(request))
                guard fields["csrf"] == session.csrf else { return Self.forbidden() }
                let endpoint = APIEndpoint.postGrant
                if let needed = endpoint.scope, !session.scope.includes(needed) {
                    let text =
                        "Granting access needs a secret key of scope \(needed.rawValue); this session's key has scope "
                        + "\(session.scope.rawValue). Nothing was granted."
                    return Self.page(DashboardPages.message(title: "Not allowed", text: text), status: .forbidden)
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

    /// Apple's refund history of each of the customer's purchases (Get Refund History, every page), each signed
    /// transaction verified, newest refund first.
    func refundHistory(of appUserID: String, bundleID: String) async throws -> [JWSTransactionDecodedPayload] {
        let project = try subscribers.apps.project(bundleID)
        let originals = Set(try await transactions(of: appUserID, bundleID: bundleID).map(\.originalTransactionID))
        var refunded: [JWSTransactionDecodedPayload] = []
        for original in originals.sorted() {
            var revision: String?
            for _ in 0..<Self.refundHistoryPages {
                let (app, _, answer) = try await purchases.askApple(
                    "Get Refund History", about: original, in: project
                ) { credentials in
                    try await purchases.intake.client.refundHistory(
                        transactionID: original, revision: revision, credentials: credentials)
                }
                for token in answer.signedTransactions ?? [] {
                    do {
                        refunded.append(try await app.signedData.verifyTransaction(token))
                    } catch let error as VerificationError {
                        throw ServiceError.unverifiable(
                            APIErrorCode(error.code), "Apple's refund history: \(error.reason)")
                    }
                }
                revision = answer.revision
                if answer.hasMore != true { break }
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
