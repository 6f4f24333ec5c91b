import AppStoreModels
public import Foundation

/// The customer takes what a real-time retention answer showed them on their subscription's page: the switch-plan
/// product (a plan change, as from Settings), or the promotional offer — a promotional offer (`offerType` 2, the
/// offer's identifier) on the next renewal, auto-renew turned back on if it was off. A message asks nothing.
extension AppStoreSimulator {
    /// Applies the customer's acceptance of `answer` (a `RealtimeResponseBody` Apple showed) to the subscription.
    /// - Returns: What was accepted: `kind` (`message`, `alternate_product`, `promotional_offer`) and its
    ///   `productId`, `offerIdentifier` or `transactionId`.
    /// - Throws: ``SimulatorError`` when the answer is not one Apple shows, or the subscription cannot take it.
    public func acceptRetentionAnswer(originalTransactionID: String, answer: Data) throws -> [String: String] {
        guard let body = try? JSONDecoder().decode(RealtimeResponseBody.self, from: answer), body.kinds == 1 else {
            throw SimulatorError(.invalidAnswer, "the answer is not a RealtimeResponseBody with one message")
        }
        if let alternate = body.alternateProduct {
            let transaction = try changePlan(originalTransactionID: originalTransactionID, to: alternate.productId)
            var accepted: [String: String] = ["kind": "alternate_product", "productId": alternate.productId]
            if let transaction { accepted["transactionId"] = transaction.transactionID }
            return accepted
        }
        guard let offer = body.promotionalOffer else { return ["kind": "message"] }
        let offerID =
            offer.promotionalOfferSignatureV2.flatMap(Self.claimedOfferIdentifier)
            ?? offer.promotionalOfferSignatureV1?.offerIdentifier ?? ""
        var subscription = try activeSubscription(originalTransactionID)
        guard apps[subscription.bundleID]?.product(subscription.autoRenewProductID)?.promotionalOffers[offerID] != nil
        else {
            throw SimulatorError(
                .noOffer, "\(subscription.autoRenewProductID) has no promotional offer \"\(offerID)\"")
        }
        subscription.pendingPromotionalOfferID = offerID
        subscriptions[originalTransactionID] = subscription
        revision &+= 1
        if !subscription.autoRenewEnabled {
            try setAutoRenew(originalTransactionID: originalTransactionID, enabled: true)
        }
        return ["kind": "promotional_offer", "offerIdentifier": offerID]
    }
}
