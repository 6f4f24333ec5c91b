public import Foundation

/// Everything the simulator knows, as a value that can be written to disk and read back: apps, transactions,
/// subscriptions, notification history with its delivery attempts, the random generator, the id counter and
/// the clock. A simulator that restarts from its world keeps its customers and never hands out an id again.
public struct SimulatorWorld: Codable, Sendable {
    /// The layout this build writes and reads.
    public static let currentFormat = 1

    /// The layout of this value.
    public var format = Self.currentFormat
    /// The apps, with their catalogs.
    var apps: [SimulatedApp]
    /// Every transaction, in the order it was recorded.
    var transactions: [SimulatedTransaction]
    /// Every subscription.
    var subscriptions: [SimulatedSubscription]
    /// Every notification, oldest first, with its delivery attempts.
    var notifications: [SimulatedNotification]
    /// Positions in ``notifications`` still awaiting a delivery attempt.
    var awaitingDelivery: [Int]
    /// The random generator, where it stood.
    var random: SeededRandom
    /// The last id number handed out.
    var counter: UInt64
    /// Customers (bundle, group, customer) who used an introductory offer.
    var introUsed: [String]
    /// The verifyReceipt status forced for tests, if any.
    var forcedVerifyReceiptStatus: Int?
    /// Customers deleted (their Server API history answers 4040010).
    var deletedCustomers: [String]
    /// Consumption information sent to the simulator, by transaction id.
    var consumptionInfo: [String: Data]
    /// The App Store Server API private keys the simulator generated, by bundle id, in PEM.
    var generatedAPIKeys: [String: String]
    /// The simulator's clock when the world was taken (a manual clock resumes from it).
    public var clock: Date
    /// Completed mass renewal-date extensions (absent in worlds saved before they existed).
    var massExtensions: [MassExtension]?
    /// How many times this world has been restored (each restore moves ids and random numbers on).
    var restores: Int
    /// Transactions the app finished on the device (absent in worlds saved before the device view existed).
    var finishedOnDevice: [String]?
    /// Promotional offer nonces spent (absent in worlds saved before offers were checked).
    var usedOfferNonces: [String]?
    /// Refund requests and what became of them, by transaction id (absent in worlds saved before the refund
    /// desk).
    var consumptionRequests: [String: SimulatedConsumptionRequest]?

    /// What the world holds, in a few words: `2 apps, 40 subscriptions, 130 notifications`.
    public var summary: String {
        "\(apps.count) apps, \(subscriptions.count) subscriptions, \(notifications.count) notifications"
    }
}
