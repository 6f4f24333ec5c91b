import Foundation

/// Rule ``SubscriptionRule/consentRescindedWithholdsAccess``: after a parent or guardian rescinds consent for a
/// minor's use of the app, what was bought before grants no access; a purchase after it (consent given again)
/// does. Apple's own states are kept as Apple reports them; only the entitlements they would grant are withheld.
enum ConsentRescissionRule {
    /// Withholds access from the subscriptions and purchases the rescissions known at `now` name.
    /// - Parameters:
    ///   - rescissions: Every rescission in the evidence.
    ///   - began: When each subscription (by original transaction id) was first bought.
    ///   - subscriptions: The evaluated subscriptions.
    ///   - purchases: The evaluated purchases.
    ///   - now: The instant.
    static func apply(
        _ rescissions: Set<ConsentRescission>, began: [String: Date], to subscriptions: inout [SubscriptionState],
        purchases: inout [PurchaseState], at now: Date
    ) {
        var latest: [String: ConsentRescission] = [:]
        for rescission in rescissions where rescission.rescindedAt <= now {
            if latest[rescission.originalTransactionID].map({ $0.rescindedAt < rescission.rescindedAt }) ?? true {
                latest[rescission.originalTransactionID] = rescission
            }
        }
        guard !latest.isEmpty else { return }
        for index in subscriptions.indices {
            let state = subscriptions[index]
            guard let rescission = latest[state.originalTransactionID],
                (began[state.originalTransactionID] ?? .distantPast) <= rescission.rescindedAt
            else { continue }
            subscriptions[index].consentRescindedAt = rescission.rescindedAt
            subscriptions[index].explanation.append(sentence(rescission))
        }
        for index in purchases.indices {
            let purchase = purchases[index]
            guard let rescission = latest[purchase.transactionID],
                (purchase.purchaseDate ?? .distantPast) <= rescission.rescindedAt
            else { continue }
            purchases[index].grantsAccess = false
            purchases[index].explanation.append(sentence(rescission))
        }
    }

    static func sentence(_ rescission: ConsentRescission) -> String {
        ExplanationFormat.tagged(
            .consentRescindedWithholdsAccess,
            "a parent or guardian rescinded consent \(ExplanationFormat.date(rescission.rescindedAt)) (app transaction "
                + "\(rescission.appTransactionID)): no access from what was bought before")
    }
}
