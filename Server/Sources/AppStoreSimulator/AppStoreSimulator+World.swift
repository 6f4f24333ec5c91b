import Crypto
import Foundation

/// Taking the simulated world as a value and restoring it, so a simulator survives restarts.
extension AppStoreSimulator {
    /// How far the id counter moves on at each restore: ids handed out after the world was last saved (the
    /// process was killed before it could save) are never handed out again. A saved world is at most a few
    /// seconds old, far fewer ids than this.
    static let idsSkippedOnRestore: UInt64 = 100_000

    /// The whole simulated world now.
    public func world() -> SimulatorWorld {
        SimulatorWorld(
            apps: allApps(), transactions: transactionOrder.compactMap { transactions[$0] },
            subscriptions: subscriptions.values.sorted { $0.originalTransactionID < $1.originalTransactionID },
            notifications: notificationLog, awaitingDelivery: awaitingDelivery.sorted(), random: random,
            counter: counter, introUsed: introUsed.sorted(), forcedVerifyReceiptStatus: forcedVerifyReceiptStatus,
            deletedCustomers: deletedCustomers.sorted(), consumptionInfo: consumptionInfo,
            generatedAPIKeys: generatedAPIKeys.mapValues(\.pemRepresentation), clock: clock.now(),
            massExtensions: massExtensions, restores: restores, finishedOnDevice: finishedOnDevice.sorted(),
            usedOfferNonces: usedOfferNonces.sorted(), consumptionRequests: consumptionRequests)
    }

    /// Replaces everything the simulator knows with `world`. Ids continue past any the world could have handed
    /// out before it was saved, and random numbers (notification UUIDs, order ids) continue on a new stream.
    /// - Throws: ``SimulatorError`` for a world of another format or with an unreadable key.
    public func restore(_ world: SimulatorWorld) throws {
        guard world.format == SimulatorWorld.currentFormat else {
            throw SimulatorError(
                .unknownWorldFormat,
                "the saved world has format \(world.format); this simulator reads format \(SimulatorWorld.currentFormat)",
                kind: .failed)
        }
        var keys: [String: P256.Signing.PrivateKey] = [:]
        for (bundleID, pem) in world.generatedAPIKeys {
            do { keys[bundleID] = try P256.Signing.PrivateKey(pemRepresentation: pem) } catch {
                throw SimulatorError(
                    .unreadableWorld, "the saved API key of \(bundleID) cannot be read: \(error)", kind: .failed)
            }
        }
        apps = Dictionary(world.apps.map { ($0.bundleID, $0) }, uniquingKeysWith: { _, last in last })
        transactions = [:]
        transactionOrder = []
        transactionIDsByCustomer = [:]
        for transaction in world.transactions { record(transaction) }
        subscriptions = SubscriptionTable(world.subscriptions)
        notificationLog = world.notifications
        notificationIndex = [:]
        for (position, notification) in notificationLog.enumerated() {
            notificationIndex[notification.notificationUUID] = position
        }
        awaitingDelivery = Set(world.awaitingDelivery.filter { notificationLog.indices.contains($0) })
        restores = world.restores + 1
        counter = world.counter + Self.idsSkippedOnRestore
        var stream = world.random
        random = SeededRandom(seed: stream.next() ^ UInt64(restores) &* 0xD6E8_FEB8_6659_FD93)
        introUsed = Set(world.introUsed)
        forcedVerifyReceiptStatus = world.forcedVerifyReceiptStatus
        deletedCustomers = Set(world.deletedCustomers)
        consumptionInfo = world.consumptionInfo
        generatedAPIKeys = keys
        massExtensions = world.massExtensions ?? []
        finishedOnDevice = Set(world.finishedOnDevice ?? [])
        usedOfferNonces = Set(world.usedOfferNonces ?? [])
        consumptionRequests = world.consumptionRequests ?? [:]
        revision &+= 1
    }

    /// A value that changes whenever the world does: new ids and notifications move the counter and the log,
    /// and every change that adds neither (an app registered, a delivery attempt, a switch set) moves
    /// ``revision``. Whoever saves the world saves it again only when this changed.
    public func changeMark() -> [UInt64] { [revision, counter, UInt64(notificationLog.count)] }

    /// The generated App Store Server API private key of an app, in PEM (the `.p8` contents), if the simulator
    /// generated one.
    public func generatedAPIKey(bundleID: String) -> String? { generatedAPIKeys[bundleID]?.pemRepresentation }
}
