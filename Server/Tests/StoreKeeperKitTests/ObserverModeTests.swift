import Foundation
import StoreKeeperAPI
import StoreKeeperKit
import TestSupport
import Testing

/// Observer mode against a real `storekeeper serve`: the app keeps its own purchase code and finishes its own
/// transactions; the SDK never buys and never finishes, yet the server hears every transaction — the app's own
/// purchase handed to `recordPurchase`, a renewal arriving while it runs, one left unfinished at a launch — and
/// the access is published.
@Suite(.timeLimit(.minutes(3))) struct ObserverModeTests {
    static func observer(_ server: KitServer, _ store: SimulatorStore, _ clock: TestDeviceClock) -> StoreKeeper {
        StoreKeeper(
            configuration: .init(serverURL: server.base, apiKey: KitServer.publicKey), store: store,
            persistence: InMemoryPersistence(), mode: .observer, clock: clock)
    }

    @Test("the app buys and finishes; the SDK sends, publishes and never finishes; purchase() is refused")
    func appBuysAndFinishes() async throws {
        try await KitServer.with { server in
            let store = server.store("oscar")
            let clock = TestDeviceClock()
            let kit = Self.observer(server, store, clock)
            let updates = kit.customerInfoUpdates
            try await kit.start()
            await #expect(throws: StoreKeeperError(.observerMode, "")) {
                try await kit.purchase(productID: "premium.monthly")
            }

            // The app's own purchase code buys, hands the transaction over, and finishes it itself afterwards.
            guard case .purchased(let transaction) = try await store.purchase("basic.monthly", offer: nil) else {
                Issue.record("the app's purchase did not complete")
                return
            }
            let info = try await kit.recordPurchase(transaction)
            #expect(info.verification == .server && info.entitlements["basic"]?.isActive == true)
            #expect(try await store.unfinishedTransactions().map(\.id) == [transaction.id], "the SDK finished it")
            try await store.finish(transaction)
            #expect(try await store.unfinishedTransactions().isEmpty)
            var iterator = updates.makeAsyncIterator()
            var published = await iterator.next()
            while published?.entitlements["basic"]?.isActive != true { published = await iterator.next() }
            let firstExpiry = try #require(published?.entitlements["basic"]?.expiresAt)

            // A renewal arrives while the app runs (the store's updates): the SDK sends it and leaves it for the
            // app to finish.
            try await server.advance(3_600 * 1.05, device: clock)
            var renewed = await iterator.next()
            while (renewed?.entitlements["basic"]?.expiresAt ?? .distantPast) <= firstExpiry {
                renewed = await iterator.next()
            }
            #expect(renewed?.entitlements["basic"]?.isActive == true)
            #expect(try await store.unfinishedTransactions().count == 1, "the renewal waits for the app to finish it")
            let stored = try await server.subscriber(try #require(await kit.appUserID))
            #expect(stored.subscriptions.first?.latestTransactionID != transaction.id)
            await kit.stop()
        }
    }

    @Test("a transaction the app left unfinished is sent at the next launch and still left to the app")
    func unfinishedAtLaunch() async throws {
        try await KitServer.with { server in
            let store = server.store("olive")
            let clock = TestDeviceClock()
            _ = try await store.purchase("premium.monthly", offer: nil)  // bought while the SDK was not running
            let kit = Self.observer(server, store, clock)
            let info = try await kit.start()
            #expect(info.entitlements["pro"]?.isActive == true)
            #expect(try await store.unfinishedTransactions().count == 1)
            await kit.stop()
        }
    }
}
