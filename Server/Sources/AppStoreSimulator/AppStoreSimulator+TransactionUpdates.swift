import Crypto
public import Foundation

/// The Server API calls about one customer's transactions beyond reading them: Set App Account Token, Finish
/// Transaction, Get App Transaction Info.
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

extension AppStoreSimulator {
    /// Get App Transaction Info: the customer's signed app transaction (`signedAppTransactionInfo`), for any of
    /// their transaction ids. The app transaction id is stable per customer; the original purchase is the
    /// customer's first transaction.
    public func appTransactionInfo(transactionID: String, bundleID: String) throws(AppStoreAPIError) -> String {
        advance()
        let transaction = try customerTransaction(transactionID, bundleID: bundleID)
        guard let app = apps[bundleID] else { throw .transactionNotFound }
        let customer = transaction.bundleID + "\n" + transaction.customerID
        let first = transactionIDsByCustomer[customer]?.first.flatMap { transactions[$0] } ?? transaction
        let now = clock.now()
        var payload: [String: Any] = [
            "receiptType": configuration.environment, "bundleId": bundleID, "applicationVersion": "1",
            "originalApplicationVersion": "1", "receiptCreationDate": Self.milliseconds(now),
            "originalPurchaseDate": Self.milliseconds(first.originalPurchaseDate), "signedDate": Self.milliseconds(now),
            "appTransactionId": Self.appTransactionID(customer), "originalPlatform": "iOS",
            "deviceVerification": Data(SHA256.hash(data: Data(customer.utf8))).base64EncodedString(),
            "deviceVerificationNonce": UUID().uuidString.lowercased(), "versionExternalIdentifier": 0,
        ]
        if configuration.environment == "Production" { payload["appAppleId"] = app.appAppleID }
        return sign(payload)
    }

    /// A customer's app transaction id: digits derived from the app and the customer, the same every time.
    static func appTransactionID(_ customer: String) -> String {
        let digest = SHA256.hash(data: Data(customer.utf8))
        let number = digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) } % 9_000_000_000_000_000
        return String(704_000_000_000_000_000 &+ number % 1_000_000_000_000_000)
    }
}
