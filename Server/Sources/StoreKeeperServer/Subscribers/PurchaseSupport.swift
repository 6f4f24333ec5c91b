import AppStoreClient
import AppStoreModels
import AppStoreVerification
import Foundation
import StoreKeeperAPI
import StoreKeeperStorage
import StoreKeeperWire
import SubscriptionEngine

/// What support's changes to a purchase through Apple share (an extension, an app account token): the purchase must
/// be the customer's in the caller's project; Apple is asked through the first app of the project that knows it;
/// afterwards Apple's signed view of the purchase is fetched, verified and stored with the customer's evidence
/// (cause `support`), so the customer's document moves in the same call.
struct PurchaseSupport: Sendable {
    let intake: IntakeService

    /// The customer's stored evidence, when it holds `originalTransactionID`.
    /// - Throws: `transaction_not_found` naming both when it does not.
    func requireOwned(_ originalTransactionID: String, by appUserID: String, in project: ProjectScope) async throws
        -> EvidenceSet
    {
        let stored = try await intake.store.snapshot(appUserID, in: project).map(intake.store.decodeEvidence)
        guard let stored, stored.transactions.contains(where: { $0.originalTransactionID == originalTransactionID })
        else {
            throw ServiceError(
                .notFound, .transactionNotFound,
                "\(UntrustedText.quoted(appUserID)) holds no purchase \(UntrustedText.quoted(originalTransactionID))")
        }
        return stored
    }

    /// `call`'s answer from the first app of `project` with credentials whose Apple knows the purchase.
    /// - Throws: what `call` throws as a ``ServiceError``; Apple's other failures as `apple_unavailable` (or its
    ///   timeout or rate limit) naming `name`; `api_credentials_missing`; `transaction_not_found` when no app's Apple
    ///   knows it.
    func askApple<Answer: Sendable>(
        _ name: String, about originalTransactionID: String, in project: ProjectScope,
        _ call: (AppStoreClient.Credentials) async throws -> Answer
    ) async throws -> (app: AppRuntime, credentials: AppStoreClient.Credentials, answer: Answer) {
        var asked = false
        for bundleID in intake.apps.bundleIDs(in: project) {
            let app = try intake.apps.app(bundleID)
            guard let credentials = app.credentials else { continue }
            asked = true
            do {
                return (app, credentials, try await call(credentials))
            } catch let error as AppStoreClientError where error.isUnknownTransaction {
                continue
            } catch let error as AppStoreClientError {
                throw ServiceError.apple(error, call: name)
            }
        }
        guard asked else {
            throw ServiceError(
                .missingConfiguration, .apiCredentialsMissing,
                "\(name) needs App Store Server API credentials for an app of the project")
        }
        throw ServiceError(
            .notFound, .transactionNotFound, "Apple knows no purchase \(originalTransactionID) in this project")
    }

    /// `token`, a signed transaction Apple answered `call` with, verified with `app`'s verifier.
    /// - Throws: the verification's code, naming the call.
    static func verifiedTransaction(_ token: String, app: AppRuntime, from call: String) async throws
        -> JWSTransactionDecodedPayload
    {
        do {
            return try await app.signedData.verifyTransaction(token)
        } catch let error as VerificationError {
            throw ServiceError.unverifiable(APIErrorCode(error.code), "\(call): \(error.reason)")
        }
    }

    /// Stores Apple's signed view of `originalTransactionID` now for `appUserID`: the subscription statuses of a
    /// subscription (`subscription`), the transaction itself (Get Transaction Info) of any other purchase.
    func storeApplesView(
        of originalTransactionID: String, subscription: Bool, app: AppRuntime,
        credentials: AppStoreClient.Credentials, appUserID: String, eventType: String,
        detail: [String: EventValue]
    ) async throws {
        var evidence = EvidenceSet()
        var signed: [String] = []
        if subscription {
            let verified = try await intake.appleStatuses(originalTransactionID, app: app, credentials: credentials)
            evidence = verified.evidence
            signed = verified.signed
        } else {
            let answer: TransactionInfoResponse
            do {
                answer = try await intake.client.transactionInfo(
                    transactionID: originalTransactionID, credentials: credentials)
            } catch let error as AppStoreClientError {
                throw ServiceError.apple(error, call: "Get Transaction Info")
            }
            if let token = answer.signedTransactionInfo {
                evidence.add(
                    transaction: try await Self.verifiedTransaction(token, app: app, from: "Get Transaction Info"),
                    source: .serverAPI)
                signed = [token]
            }
        }
        _ = try await intake.store.apply(
            EvidenceWrite(
                project: app.project, bundleID: app.configuration.bundleID, appUserID: appUserID,
                kind: subscription ? "subscription_statuses" : "signed_transaction",
                rawBody: signed.joined(separator: "\n"), evidence: evidence,
                originalTransactionIDs: IntakeService.originals(evidence), cause: .support, eventType: eventType,
                detail: detail),
            policy: intake.policy, now: intake.now())
    }
}
