public import AppStoreModels
public import AppStoreSimulator
public import AppStoreVerification
public import Foundation

/// A simulator on a manual clock with a demo app, and StoreKeeper's own verifiers configured with its roots.
public struct SimulatorHarness: Sendable {
    /// One PKI for the whole test run: RSA key generation is slow, and tests need not repeat it.
    public static let sharedPKI: SimulatorPKI = try! SimulatorPKI.generate()

    /// The clock.
    public let clock: ManualClock
    /// The simulator.
    public let simulator: AppStoreSimulator
    /// A JWS verifier that trusts the simulator's root.
    public let verifier: AppStoreSignedDataVerifier
    /// The demo app's bundle id.
    public let bundleID = "com.example.storekeeper.demo"
    /// The demo app's shared secret.
    public let sharedSecret = "demo-shared-secret"
    /// Sandbox seconds in one month at the configured rate.
    public let month: TimeInterval

    /// Makes a harness.
    /// - Parameters:
    ///   - seed: The simulator's seed.
    ///   - gracePeriodDays: The demo app's grace period.
    ///   - maximumRenewals: The renewal cap.
    ///   - notificationURL: Where V2 notifications go.
    public init(
        seed: UInt64 = 1, gracePeriodDays: Int = 16, maximumRenewals: Int = 12, notificationURL: String? = nil
    ) async throws {
        clock = ManualClock(start: Date(timeIntervalSince1970: 1_767_225_600))
        var configuration = AppStoreSimulator.Configuration()
        configuration.seed = seed
        configuration.maximumRenewals = maximumRenewals
        simulator = AppStoreSimulator(configuration: configuration, pki: Self.sharedPKI, clock: clock)
        month = configuration.rate.seconds(for: .month)
        verifier = try AppStoreSignedDataVerifier(
            configuration: .init(rootCertificates: [Self.sharedPKI.signedDataRootDER]))
        try await simulator.createApp(
            SimulatedApp.demo(
                bundleID: bundleID, sharedSecret: sharedSecret, gracePeriodDays: gracePeriodDays,
                notificationURL: notificationURL))
    }

    /// Advances the clock by sandbox months.
    public func advance(months: Double) async {
        clock.advance(by: months * month)
        await simulator.advance()
    }

    /// Notifications so far, verified and decoded: (type, subtype).
    public func notifications() async throws -> [(String, String?)] {
        var result: [(String, String?)] = []
        for record in await simulator.notifications(for: bundleID) {
            let verified = try await verifier.verifyNotification(record.signedPayload)
            result.append((verified.payload.notificationType.rawValue, verified.payload.subtype?.rawValue))
        }
        return result
    }

    /// The last notification's (type, subtype), verified.
    public func lastNotification() async throws -> (String, String?)? {
        try await notifications().last
    }

    /// The Server API status (1–5) of a subscription, from Get All Subscription Statuses.
    public func apiStatus(_ originalTransactionID: String) async throws -> Int? {
        let response = try await simulator.allSubscriptionStatuses(
            transactionID: originalTransactionID, bundleID: bundleID)
        return response.data?.flatMap { $0.lastTransactions ?? [] }
            .first { $0.originalTransactionId == originalTransactionID }?.status?.rawValue
    }

    /// verifyReceipt (sandbox host) for a customer's current receipt.
    public func verifyReceipt(customerID: String, password: String? = nil, excludeOld: Bool = false) async throws
        -> VerifyReceiptResponse
    {
        let receipt = try await simulator.receipt(bundleID: bundleID, customerID: customerID)
        let body = try JSONEncoder().encode(
            VerifyReceiptRequest(
                receiptData: receipt, password: password ?? sharedSecret, excludeOldTransactions: excludeOld))
        let data = await simulator.verifyReceipt(body: body, endpoint: .sandbox)
        return try JSONDecoder().decode(VerifyReceiptResponse.self, from: data)
    }
}
