import Foundation

/// What StoreKit on a customer's device sees: the customer's transactions in their signed form, and which of them
/// the app has finished. A client SDK's simulated store (`SimulatorStore`) reads this instead of StoreKit.
extension AppStoreSimulator {
    /// One transaction as the device holds it.
    public struct DeviceTransaction: Sendable, Hashable {
        /// The transaction.
        public var transaction: SimulatedTransaction
        /// Its JWS, as StoreKit 2's `jwsRepresentation`.
        public var signedTransaction: String
        /// Whether the app finished it.
        public var finished: Bool
    }

    /// Every transaction of `customerID` in `bundleID`, oldest first, signed now.
    /// - Throws: ``SimulatorError`` for an unknown app.
    public func deviceTransactions(bundleID: String, customerID: String) throws -> [DeviceTransaction] {
        advance()
        guard apps[bundleID] != nil else { throw SimulatorError.notFound("app", bundleID) }
        let now = clock.now()
        return customerTransactions(bundleID: bundleID, customerID: customerID).map {
            DeviceTransaction(
                transaction: $0, signedTransaction: sign(transactionPayload($0, signedAt: now)),
                finished: finishedOnDevice.contains($0.transactionID))
        }
    }

    /// One transaction as the device sees it (StoreKit's `jwsRepresentation` of a purchase's result).
    /// - Parameter transactionID: The transaction.
    /// - Returns: It, signed now, or `nil` when unknown.
    public func deviceTransaction(_ transactionID: String) -> DeviceTransaction? {
        guard let transaction = transactions[transactionID] else { return nil }
        return DeviceTransaction(
            transaction: transaction, signedTransaction: sign(transactionPayload(transaction, signedAt: clock.now())),
            finished: finishedOnDevice.contains(transactionID))
    }

    /// The app finished `transactionID` on the device (StoreKit's `Transaction.finish()`); finishing twice is
    /// harmless.
    /// - Throws: ``SimulatorError`` for an unknown transaction.
    public func finishOnDevice(transactionID: String) throws {
        guard transactions[transactionID] != nil else { throw SimulatorError.notFound("transaction", transactionID) }
        if finishedOnDevice.insert(transactionID).inserted { revision &+= 1 }
    }
}
