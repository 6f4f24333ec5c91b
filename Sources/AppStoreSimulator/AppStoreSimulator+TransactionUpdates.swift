public import Foundation

/// The Server API calls that change a transaction: Set App Account Token and Finish Transaction.
extension AppStoreSimulator {
    /// Set App Account Token: every transaction of the purchase, and its later renewals, carry `token`.
    /// - Throws: 400 4000183 for a token that is not a UUID, 400 4000187 for an id that is not an original
    ///   transaction id, 404 for an unknown one.
    public func setAppAccountToken(originalTransactionID: String, bundleID: String, token: String?)
        throws(AppStoreAPIError)
    {
        advance()
        let transaction = try customerTransaction(originalTransactionID, bundleID: bundleID)
        guard let token, let uuid = UUID(uuidString: token) else {
            throw AppStoreAPIError(
                httpStatus: 400, errorCode: 4_000_183,
                errorMessage: "Invalid request. The app account token is not a UUID.")
        }
        guard transaction.originalTransactionID == originalTransactionID else {
            throw AppStoreAPIError(
                httpStatus: 400, errorCode: 4_000_187,
                errorMessage: "Invalid request. The transaction id is not an original transaction id.")
        }
        let value = uuid.uuidString.lowercased()
        for id in transactionOrder where transactions[id]?.originalTransactionID == originalTransactionID {
            transactions[id]?.appAccountToken = value
        }
        subscriptions[originalTransactionID]?.appAccountToken = value
        revision &+= 1
    }

    /// Finish Transaction: the app's server says it delivered the purchase. Known transactions answer 200.
    public func finishTransaction(transactionID: String, bundleID: String) throws(AppStoreAPIError) {
        _ = try customerTransaction(transactionID, bundleID: bundleID)
    }
}
