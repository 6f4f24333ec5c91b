import EvidenceInspection
import SubscriptionEngine

extension EvidenceSet {
    /// Adds verified evidence from the inspector.
    mutating func add(_ evidence: InspectedEvidence) {
        switch evidence {
        case .receipt(let receipt): add(receipt: receipt)
        case .transaction(let transaction): add(transaction: transaction)
        case .renewalInfo(let info): add(renewalInfo: info)
        case .appTransaction: break
        case .notificationV2(let notification):
            add(
                notificationV2: notification.payload, transaction: notification.transaction,
                renewalInfo: notification.renewalInfo)
        case .notificationV1(let body): add(notificationV1: body)
        case .verifyReceiptResponse(let response): add(verifyReceiptResponse: response)
        }
    }
}
