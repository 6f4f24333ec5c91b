import AppStoreClient
import AppStoreModels
import Foundation
import StoreKeeperAPI
import StoreKeeperStorage
import StoreKeeperWire

/// Support fixing a subscription with Apple: Extend a Subscription Renewal Date for one of the customer's
/// subscriptions, Apple's limits checked before Apple is asked, and Apple's signed statuses stored afterwards so
/// the customer's renewal date, events and webhooks move in the same call (``PurchaseSupport``).
struct SupportExtensions: Sendable {
    let purchases: PurchaseSupport

    /// Apple's reason codes (`extendReasonCode`), by the names the API takes.
    static let reasons: [String: Int] = ["undeclared": 0, "customer_satisfaction": 1, "other": 2, "service_issue": 3]
    /// The most days one extension may add (Apple's limit).
    static let maximumDays = 90
    /// How many extensions Apple allows a subscription within ``window``.
    static let maximumPerWindow = 2
    /// Apple's window for ``maximumPerWindow``: 365 days.
    static let window: TimeInterval = 365 * 86_400
    /// The event each extension writes (its detail names the subscription; the yearly count reads these).
    static let eventType = "renewal_extended"

    /// Extends `originalTransactionID`, which must be one of `appUserID`'s subscriptions in the caller's project.
    /// - Throws: `invalid_extension` naming the field and value; `transaction_not_found` when the customer holds no
    ///   such subscription; `extension_limit_reached` (checked here first, and Apple's own 4030005);
    ///   `extension_refused` when Apple finds the subscription ineligible; `api_credentials_missing`; Apple's
    ///   unavailability. Nothing is written unless Apple extended it.
    func extend(_ body: ExtensionPost, appUserID: String, originalTransactionID: String, bundleID: String)
        async throws -> RenewalExtension
    {
        let appUserID = try CustomerID.normalized(appUserID)
        let (days, reason, code) = try Self.validated(body)
        let project = try purchases.intake.apps.project(bundleID)
        _ = try await purchases.requireOwned(originalTransactionID, by: appUserID, in: project)
        let earlier = try await extensions(
            of: originalTransactionID, appUserID: appUserID, in: project, at: purchases.intake.now())
        guard earlier < Self.maximumPerWindow else { throw Self.limitReached(originalTransactionID, earlier) }
        let requestIdentifier = UUID().uuidString.lowercased()
        var request = ExtendRenewalDateRequest()
        request.extendByDays = days
        request.extendReasonCode = code
        request.requestIdentifier = requestIdentifier
        let (app, credentials, answer) = try await purchases.askApple(
            "Extend a Subscription Renewal Date", about: originalTransactionID, in: project
        ) { credentials in
            do {
                return try await purchases.intake.client.extendRenewalDate(
                    originalTransactionID: originalTransactionID, request: request, credentials: credentials)
            } catch let error as AppStoreClientError where error.appleErrorCode == 4_030_005 {
                throw Self.limitReached(originalTransactionID, nil)
            } catch let error as AppStoreClientError where error.status == 403 && error.appleErrorCode != nil {
                throw ServiceError(
                    .conflict, .extensionRefused,
                    "Apple refused to extend subscription \(originalTransactionID): \(error.reason)")
            } catch let error as AppStoreClientError where error.status == 400 {
                throw ServiceError.invalid(.invalidExtension, "Apple refused the extension: \(error.reason)")
            }
        }
        guard answer.success == true else {
            throw ServiceError(
                .conflict, .extensionRefused, "Apple did not extend subscription \(originalTransactionID)")
        }
        try await purchases.storeApplesView(
            of: originalTransactionID, subscription: true, app: app, credentials: credentials, appUserID: appUserID,
            eventType: Self.eventType,
            detail: [
                "original_transaction_id": .string(originalTransactionID), "days": .integer(Int64(days)),
                "reason": .string(reason), "request_identifier": .string(requestIdentifier),
            ])
        return RenewalExtension(
            originalTransactionID: originalTransactionID, days: days, reason: reason,
            requestIdentifier: requestIdentifier, renewsAt: answer.effectiveDate.map(AppleDateFormat.rfc3339),
            extensionsInYear: earlier + 1)
    }

    /// The days, the reason's name and Apple's code for it.
    static func validated(_ body: ExtensionPost) throws(ServiceError) -> (Int, String, Int) {
        guard let days = body.days else { throw .invalid(.missingField, "days is required (1–\(maximumDays))") }
        guard (1...maximumDays).contains(days) else {
            throw .invalid(.invalidExtension, "days \(days) is outside 1–\(maximumDays) (Apple's limit)")
        }
        guard let reason = body.reason else {
            throw .invalid(.missingField, "reason is required: \(reasons.keys.sorted().joined(separator: ", "))")
        }
        guard let code = reasons[reason] else {
            throw .invalid(
                .invalidExtension,
                "reason \(UntrustedText.quoted(reason)) is not one of \(reasons.keys.sorted().joined(separator: ", "))")
        }
        return (days, reason, code)
    }

    /// How many times support extended `originalTransactionID` in the window before `at`.
    func extensions(of originalTransactionID: String, appUserID: String, in project: ProjectScope, at: Date)
        async throws -> Int
    {
        let since = at.addingTimeInterval(-Self.window)
        return try await purchases.intake.store.events(appUserID, in: project, type: Self.eventType).filter {
            $0.createdAt > since && $0.detail["original_transaction_id"] == .string(originalTransactionID)
        }.count
    }

    /// Apple's limit, named: `earlier` extensions in the last 365 days (`nil`: as Apple counted them).
    static func limitReached(_ originalTransactionID: String, _ earlier: Int?) -> ServiceError {
        ServiceError(
            .conflict, .extensionLimitReached,
            "subscription \(originalTransactionID) was already extended \(earlier.map { "\($0) times" } ?? "twice") "
                + "in the last 365 days; Apple allows \(maximumPerWindow) extensions in 365 days")
    }
}
