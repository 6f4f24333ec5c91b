import Hummingbird
import Logging
import StoreKeeperAPI
import StoreKeeperStorage

/// Evidence coming in: app receipts, StoreKit 2 transactions, Apple's notifications and imports of existing
/// customers.
struct IntakeRoutes: APIFeature {
    let service: IntakeService

    func register(_ handlers: inout APIHandlers) {
        handlers.on(.postReceipt) { call in
            let body = try await call.decode(ReceiptPost.self)
            return call.json(
                try await service.postReceipt(
                    appUserID: try call.required(body.appUserID, "app_user_id"),
                    receipt: try call.required(body.receipt, "receipt"), deviceID: body.deviceID,
                    bundleID: call.bundleID, personal: call.isSecret))
        }
        handlers.on(.postTransaction) { call in
            let body = try await call.decode(TransactionPost.self)
            return call.json(
                try await service.postTransaction(
                    appUserID: try call.required(body.appUserID, "app_user_id"),
                    signedTransaction: try call.required(body.signedTransaction, "signed_transaction"),
                    bundleID: call.bundleID, personal: call.isSecret))
        }
        handlers.on(.postNotification) { call in
            let outcome: ApplyOutcome
            let received = try await call.body()
            do {
                outcome = try await service.ingestNotification(received)
            } catch {
                ServerMetrics.notification(type: "unknown", outcome: "rejected")
                if let refusal = error as? ServiceError { service.recordRefused(received, error: refusal) }
                throw error
            }
            var metadata: Logger.Metadata = ["outcome": "\(outcome.status)"]
            if case .applied(let appUserID) = outcome { metadata["app_user_id"] = "\(appUserID)" }
            call.context.logger.info("notification received", metadata: metadata)
            return call.json(Self.notificationAnswer(outcome))
        }
        handlers.on(.postImport) { call in
            let body = try await call.decode(ImportPost.self)
            let user = try call.required(body.appUserID, "app_user_id")
            switch (body.originalTransactionID, body.receipt) {
            case (let original?, nil):
                return call.json(
                    try await service.importSubscriber(
                        appUserID: user, originalTransactionID: original, bundleID: call.bundleID))
            case (nil, let receipt?):
                return call.json(
                    try await service.postReceipt(
                        appUserID: user, receipt: receipt, deviceID: nil, bundleID: call.bundleID, cause: .imported,
                        personal: call.isSecret))
            default:
                throw APIError.badRequest(.invalidField, "give exactly one of original_transaction_id and receipt")
            }
        }
    }

    /// The answer to a notification: `{"status":"…"}` (a status is one of four plain words, nothing to escape).
    static func notificationAnswer(_ outcome: ApplyOutcome) -> [UInt8] {
        Array(#"{"status":"\#(outcome.status)"}"#.utf8)
    }
}
