/// Apple's side of the money: every transaction the simulator made, as its ledger, so a check can compute by hand
/// what a population paid (revenue) and kept (proceeds) and compare the metrics with it.
extension AppStoreSimulator {
    /// Every transaction of `bundleID`, in the order they were made.
    /// - Parameter bundleID: The app.
    public func ledger(of bundleID: String) -> [SimulatedTransaction] {
        transactionOrder.compactMap { transactions[$0] }.filter { $0.bundleID == bundleID }
    }
}
