import Foundation
import SubscriptionEngine
import Testing

@testable import StoreKeeperStorage

/// What a write changes, decided without a database: from the write, the policy and what was read.
@Suite struct WritePlannerTests {
    typealias Spec = StoreConformanceTests
    static let project = Spec.project

    static func key(_ value: String) -> String { project.key(value) }

    static func stored(_ evidence: EvidenceSet) -> StoredEvidence {
        StoredEvidence(json: "{}", evidence: evidence)
    }

    static func reading(
        owners: [String: String] = [:], user: String?, stored: [String: EvidenceSet] = [:],
        parked: [ParkedNotification] = []
    ) -> WriteReading {
        WriteReading(
            owners: Dictionary(uniqueKeysWithValues: owners.map { (key($0.key), key($0.value)) }), user: user.map(key),
            stored: Dictionary(uniqueKeysWithValues: stored.map { (key($0.key), Self.stored($0.value)) }),
            parked: parked)
    }

    static func ids(_ evidence: EvidenceSet) -> Set<String> { Set(evidence.transactions.map(\.transactionID)) }

    @Test("a notification about no subscription is recorded, and changes no subscriber")
    func recorded() {
        var write = Spec.notification("n", "t", original: "o").keyed
        write.originalTransactionIDs = []
        let plan = WritePlanner.plan(write, policy: .transfer, reading: Self.reading(user: nil))
        #expect(plan.outcome == .recorded)
        #expect(plan.notification == NotificationMark(status: "recorded", parked: nil))
        #expect(plan.saves.isEmpty && plan.events.isEmpty && plan.changed.isEmpty)
    }

    @Test("a notification about a subscription nobody owns is parked with its observations")
    func parked() {
        let write = Spec.notification("n", "t2", original: "o9").keyed
        let plan = WritePlanner.plan(write, policy: .transfer, reading: Self.reading(user: nil))
        #expect(plan.outcome == .pending)
        #expect(plan.notification?.status == "pending" && plan.notification?.parked == write.evidence)
        #expect(plan.newOwners.isEmpty && plan.saves.isEmpty)
    }

    @Test("a first purchase owns its subscription and adds to the subscriber's row, with one event")
    func firstPurchase() throws {
        let write = Spec.clientWrite("alice", "t1", original: "o1").keyed
        let plan = WritePlanner.plan(write, policy: .transfer, reading: Self.reading(user: "alice"))
        #expect(plan.outcome == .applied(appUserID: "alice"))
        #expect(
            plan.newOwners.map(\.original) == [Self.key("o1")] && plan.newOwners.map(\.owner) == [Self.key("alice")])
        let save = try #require(plan.saves.last)
        #expect(save.user == Self.key("alice") && Self.ids(save.evidence) == ["t1"])
        #expect(plan.events.map(\.type) == ["transaction_posted"])
        #expect(plan.events[0].detail["kind"] == "signed_transaction")
        #expect(plan.changed == [Self.key("alice")])
    }

    @Test("a renewal adds to what the owner has stored, as an extension of the stored row")
    func renewal() throws {
        let write = Spec.notification("n-1", "t2", original: "o1").keyed
        let plan = WritePlanner.plan(
            write, policy: .transfer,
            reading: Self.reading(
                owners: ["o1": "bob"], user: "bob", stored: ["bob": Spec.evidence("t1", original: "o1")]))
        #expect(plan.saves.count == 1 && plan.newOwners.isEmpty && plan.movedOwners.isEmpty)
        let save = try #require(plan.saves.first)
        guard case .union(let stored, let added) = save.change else {
            Issue.record("a renewal should extend the stored row, not replace it")
            return
        }
        #expect(stored.map { Self.ids($0.evidence) } == ["t1"] && Self.ids(added) == ["t2"])
        #expect(Self.ids(save.evidence) == ["t1", "t2"])
        #expect(plan.events.map(\.causeID) == ["n-1"] && plan.events[0].cause == .notification)
    }

    @Test("transfer: the subscription and its history move, the old owner's row is rewritten first, both told")
    func transfer() throws {
        var dan = Spec.evidence("t1", original: "o1")
        dan.formUnion(Spec.evidence("t9", original: "o9"))
        let plan = WritePlanner.plan(
            Spec.clientWrite("eve", "t2", original: "o1").keyed, policy: .transfer,
            reading: Self.reading(owners: ["o1": "dan"], user: "eve", stored: ["dan": dan]))
        #expect(
            plan.movedOwners.map(\.original) == [Self.key("o1")] && plan.movedOwners.map(\.owner) == [Self.key("eve")])
        #expect(plan.saves.map(\.user) == [Self.key("dan"), Self.key("eve")])
        #expect(Self.ids(plan.saves[0].evidence) == ["t9"])
        #expect(Self.ids(plan.saves[1].evidence) == ["t1", "t2"])
        #expect(
            plan.events.map(\.type) == [
                "transaction_posted", "subscription_transferred_out", "subscription_transferred_in",
            ])
        #expect(plan.events[1].appUserID == Self.key("dan") && plan.events[1].detail["to"] == "eve")
        #expect(plan.changed == [Self.key("dan"), Self.key("eve")])
    }

    @Test("keep-first: the first owner keeps the subscription and what the write observed; the requester is refused")
    func keepFirst() throws {
        let plan = WritePlanner.plan(
            Spec.clientWrite("eve", "t2", original: "o1").keyed, policy: .keepFirst,
            reading: Self.reading(
                owners: ["o1": "dan"], user: "eve", stored: ["dan": Spec.evidence("t1", original: "o1")]))
        #expect(plan.movedOwners.isEmpty)
        #expect(plan.saves.map(\.user) == [Self.key("dan"), Self.key("eve")])
        #expect(Self.ids(plan.saves[0].evidence) == ["t1", "t2"])
        #expect(Self.ids(plan.saves[1].evidence).isEmpty)
        #expect(plan.events.map(\.type) == ["transaction_posted", "transfer_refused"])
        #expect(plan.events[1].detail == ["original_transaction_id": "o1", "owner": "dan", "requester": "eve"])
    }

    @Test("parked notifications about a newly owned subscription apply late, oldest first; others stay parked")
    func late() throws {
        let parked = [
            ParkedNotification(
                id: "n-a", type: "DID_RENEW", originalTransactionIDs: [Self.key("o7")],
                evidence: Spec.evidence("r1", original: "o7")),
            ParkedNotification(
                id: "n-x", type: "DID_RENEW", originalTransactionIDs: [Self.key("o8")],
                evidence: Spec.evidence("r9", original: "o8")),
            ParkedNotification(
                id: "n-b", type: "EXPIRED", originalTransactionIDs: [Self.key("o7")],
                evidence: Spec.evidence("r2", original: "o7")),
        ]
        let plan = WritePlanner.plan(
            Spec.clientWrite("jo", "t0", original: "o7").keyed, policy: .transfer,
            reading: Self.reading(user: "jo", parked: parked))
        #expect(plan.appliedLate == ["n-a", "n-b"])
        #expect(Self.ids(try #require(plan.saves.last).evidence) == ["t0", "r1", "r2"])
        #expect(plan.events.map(\.type) == ["transaction_posted", "DID_RENEW", "EXPIRED"])
        #expect(plan.events.dropFirst().allSatisfy { $0.detail["applied"] == "late" && $0.cause == .notification })
    }

    @Test("a subscription the write's own subscriber owns is neither moved nor claimed again")
    func ownSubscription() {
        let plan = WritePlanner.plan(
            Spec.clientWrite("kim", "t2", original: "o1").keyed, policy: .keepFirst,
            reading: Self.reading(
                owners: ["o1": "kim"], user: "kim", stored: ["kim": Spec.evidence("t1", original: "o1")]))
        #expect(plan.newOwners.isEmpty && plan.movedOwners.isEmpty && plan.appliedLate.isEmpty)
        #expect(plan.saves.count == 1 && plan.events.count == 1)
    }
}
