import AppStoreSimulator
import Foundation
import TestSupport
import Testing

/// The simulator's world survives a restart: a restored simulator keeps every customer, subscription and
/// notification, and never hands out an id or a notification UUID again — not even when it restarts from a world
/// saved before its last purchases (killed between saves).
@Suite struct SimulatorWorldTests {
    /// A fresh simulator (no apps) on a clock at `now`, restored from `world` written to disk and read back.
    static func restarted(from world: SimulatorWorld) async throws -> AppStoreSimulator {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("world-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = SimulatorWorldFile(directory: directory.path)
        #expect(try file.load() == nil)
        try file.save(world)
        let saved = try #require(try file.load())
        let simulator = AppStoreSimulator(
            pki: SimulatorHarness.sharedPKI, clock: ManualClock(start: saved.clock))
        try await simulator.restore(saved)
        return simulator
    }

    @Test("restored: the same apps, subscriptions and history; the next purchase gets new ids and new UUIDs")
    func continues() async throws {
        let h = try await SimulatorHarness()
        let alice = try await h.simulator.purchase(
            bundleID: h.bundleID, productID: "premium.monthly", customerID: "alice")
        await h.advance(months: 1.01)
        let before = await h.simulator.notifications(for: h.bundleID)
        let key = try #require(await h.simulator.generatedAPIKey(bundleID: h.bundleID))
        let simulator = try await Self.restarted(from: await h.simulator.world())
        #expect(await simulator.app(h.bundleID) == (await h.simulator.app(h.bundleID)))
        #expect(
            await simulator.subscription(alice.originalTransactionID)
                == (await h.simulator.subscription(alice.originalTransactionID)))
        #expect(await simulator.notifications(for: h.bundleID) == before)
        #expect(await simulator.generatedAPIKey(bundleID: h.bundleID) == key)
        _ = try await simulator.apiToken(bundleID: h.bundleID)
        let bob = try await simulator.purchase(bundleID: h.bundleID, productID: "premium.monthly", customerID: "bob")
        let ids = Set([alice.transactionID, alice.originalTransactionID]).union(before.compactMap(\.transactionID))
        #expect(!ids.contains(bob.originalTransactionID) && !ids.contains(bob.transactionID))
        let after = await simulator.notifications(for: h.bundleID)
        #expect(after.count == before.count + 1)
        #expect(!before.map(\.notificationUUID).contains(after.last?.notificationUUID ?? ""))
        // Alice's subscription goes on renewing in the restored world.
        #expect(await simulator.subscription(alice.originalTransactionID)?.status == .active)
    }

    @Test("restarted from a world saved before the last purchases: no id or UUID is handed out twice")
    func staleWorld() async throws {
        let h = try await SimulatorHarness()
        _ = try await h.simulator.purchase(bundleID: h.bundleID, productID: "premium.monthly", customerID: "alice")
        let saved = await h.simulator.world()
        // Bought after the save, then the process is killed: the world on disk does not know bob.
        let bob = try await h.simulator.purchase(bundleID: h.bundleID, productID: "premium.monthly", customerID: "bob")
        let lost = await h.simulator.notifications(for: h.bundleID).last
        let simulator = try await Self.restarted(from: saved)
        let carol = try await simulator.purchase(
            bundleID: h.bundleID, productID: "premium.monthly", customerID: "carol")
        #expect(carol.originalTransactionID != bob.originalTransactionID && carol.transactionID != bob.transactionID)
        #expect(await simulator.notifications(for: h.bundleID).last?.notificationUUID != lost?.notificationUUID)
    }

    @Test("a saved world of another format, or a file that is not a world, is refused naming the file")
    func refused() async throws {
        let h = try await SimulatorHarness()
        var world = await h.simulator.world()
        world.format = SimulatorWorld.currentFormat + 1
        let simulator = AppStoreSimulator(pki: SimulatorHarness.sharedPKI, clock: ManualClock(start: world.clock))
        await #expect(throws: SimulatorError.self) { try await simulator.restore(world) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("world-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = SimulatorWorldFile(directory: directory.path)
        try Data("{\"format\": 1}".utf8).write(to: URL(fileURLWithPath: file.path))
        let error = try #require(throws: SimulatorError.self) { try file.load() }
        #expect(error.code == .unreadableWorld && error.reason.contains(file.path))
    }
}
