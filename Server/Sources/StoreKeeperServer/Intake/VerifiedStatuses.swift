import AppStoreModels
import AppStoreVerification
import SubscriptionEngine

/// What Get All Subscription Statuses answered, verified with the app's verifier: the one place that turns an
/// answer's signed items into evidence (a posted transaction's fresh statuses, a poll, an import).
struct VerifiedStatuses {
    /// The transactions and renewal infos that verified, as evidence from the Server API.
    var evidence = EvidenceSet()
    /// Their signed forms, in the answer's order (stored as the write's raw evidence).
    var signed: [String] = []
    /// Items that did not verify: the subscription and the reason (each caller decides what that means).
    var failures: [(originalTransactionID: String, error: any Error)] = []

    /// Verifies every item of `statuses` with `app`'s verifier.
    init(_ statuses: StatusResponse, app: AppRuntime) async {
        for item in statuses.data?.flatMap({ $0.lastTransactions ?? [] }) ?? [] {
            do {
                if let token = item.signedTransactionInfo {
                    evidence.add(transaction: try await app.signedData.verifyTransaction(token), source: .serverAPI)
                    signed.append(token)
                }
                if let token = item.signedRenewalInfo {
                    evidence.add(renewalInfo: try await app.signedData.verifyRenewalInfo(token), source: .serverAPI)
                    signed.append(token)
                }
            } catch {
                if let error = error as? VerificationError {
                    ServerMetrics.verificationFailure(code: error.code.rawValue)
                }
                failures.append((item.originalTransactionId ?? "", error))
            }
        }
    }
}
