import Foundation

/// How the server talks to Apple: how receipts are checked, how long a request may wait for Apple, and where
/// Apple is (Apple's own URLs unless set; the in-process simulator and tests point them elsewhere). In the file
/// these are top-level keys (`receiptValidation`, `appleDeadlineSeconds`, `verifyReceiptProductionURL`…).
public struct AppleSettings: Sendable {
    /// How receipts are verified.
    public enum ReceiptValidation: String, ConfigurationChoice {
        /// Apple's verifyReceipt (production, then sandbox on 21007). The default.
        case apple
        /// On this server: the PKCS#7 signature, chain and payload, no call to Apple.
        case local
    }

    /// How receipts are verified (`receiptValidation`). Default `apple`.
    public var receiptValidation = ReceiptValidation.apple
    /// The most seconds one client request may wait for Apple in all (verifyReceipt's retries and sandbox
    /// fallback included); past it the request answers 504 with a `retry_after` (`appleDeadlineSeconds`). Default 10.
    public var deadlineSeconds: Double = 10
    /// verifyReceipt's production URL (`verifyReceiptProductionURL`).
    public var verifyReceiptProductionURL: String?
    /// verifyReceipt's sandbox URL (`verifyReceiptSandboxURL`).
    public var verifyReceiptSandboxURL: String?
    /// App Store Server API base URL (production; default Apple's `https://api.storekit.apple.com`).
    public var serverAPIBaseURL: String?
    /// App Store Server API base URL for the sandbox (default Apple's `https://api.storekit-sandbox.apple.com`, or
    /// ``serverAPIBaseURL`` when only that is set: a simulator or proxy that answers both).
    public var serverAPISandboxBaseURL: String?

    /// Apple's defaults.
    public init() {}

    /// Refuses a deadline out of range, naming it.
    func check() throws(ConfigurationError) {
        guard deadlineSeconds > 0, deadlineSeconds <= 300 else {
            throw ConfigurationError(
                "appleDeadlineSeconds is \(deadlineSeconds); it must be more than 0 and at most 300")
        }
    }
}
