import Foundation
import SubscriptionEngine
import Testing

/// Rule `support-grant`: an entitlement support granted is in force from the grant to its end or revocation, beside
/// the purchases that give the same entitlement, the latest end of all of them the entitlement's; as known then, a
/// grant or revocation made later is not seen.
@Suite struct SupportGrantTests {
    let engine: SubscriptionEngine = {
        var configuration = EngineConfiguration()
        configuration.entitlements = ["monthly": ["pro"], "lifetime": ["pro"]]
        return SubscriptionEngine(configuration: configuration)
    }()

    func evidence(grantEnd: Double?, revoked: Double? = nil, subscribed: Bool = false) -> EvidenceSet {
        var set = EvidenceSet()
        set.insert(
            EntitlementGrant(
                id: "grant_a", entitlement: "pro", grantedAt: Apple.day(10), expiresAt: grantEnd.map(Apple.day),
                reason: "outage"))
        if let revoked { set.insert(GrantRevocation(grantID: "grant_a", revokedAt: Apple.day(revoked))) }
        if subscribed { set.add(transaction: Apple.transaction("t1", bought: 0, expires: 30)) }
        return set
    }

    @Test("in force from the grant to its end, explained, and a change point at both")
    func lifetimeOfAGrant() throws {
        let set = evidence(grantEnd: 17)
        #expect(engine.evaluate(set, at: Apple.day(9)).entitlements.isEmpty, "not before it was given")
        #expect(engine.evaluate(set, at: Apple.day(9)).grants.isEmpty)
        let during = engine.evaluate(set, at: Apple.day(12))
        #expect(during.entitlements.map(\.grantedBy) == ["grant_a"])
        #expect(during.entitlements.first?.productID == GrantState.productID)
        #expect(during.entitlements.first?.expiresAt == Apple.day(17))
        let grant = try #require(during.grants.first)
        #expect(grant.isActive && grant.explanation.first?.hasPrefix("[support-grant] pro granted by support") == true)
        #expect(grant.explanation.first?.contains("outage") == true)
        let after = engine.evaluate(set, at: Apple.day(17))
        #expect(after.entitlements.isEmpty && after.grants.first?.isActive == false)
        #expect(engine.nextChange(set, after: Apple.day(5)) == Apple.day(10))
        #expect(engine.nextChange(set, after: Apple.day(12)) == Apple.day(17))
    }

    @Test("beside a subscription the later end decides; a revocation ends only the grant, from its instant")
    func besideAPurchase() {
        let longer = evidence(grantEnd: 60, subscribed: true)
        #expect(engine.evaluate(longer, at: Apple.day(12)).entitlements.first?.grantedBy == "grant_a")
        let shorter = evidence(grantEnd: 20, subscribed: true)
        #expect(engine.evaluate(shorter, at: Apple.day(12)).entitlements.first?.grantedBy == "t1")
        let revoked = evidence(grantEnd: 60, revoked: 15, subscribed: true)
        #expect(engine.evaluate(revoked, at: Apple.day(14)).entitlements.first?.grantedBy == "grant_a")
        let state = engine.evaluate(revoked, at: Apple.day(16))
        #expect(state.entitlements.first?.grantedBy == "t1" && state.entitlements.first?.expiresAt == Apple.day(30))
        #expect(state.grants.first?.revokedAt == Apple.day(15) && state.grants.first?.isActive == false)
        #expect(state.grants.first?.explanation.last?.contains("revoked by support") == true)
        #expect(engine.evaluate(revoked, at: Apple.day(40)).entitlements.isEmpty)
    }

    @Test("as known then: a grant made later, or a revocation made later, is not seen")
    func asKnownThen() {
        let lifetime = evidence(grantEnd: nil, revoked: 20)
        #expect(engine.evaluate(lifetime, at: Apple.day(15), knownAt: Apple.day(5)).grants.isEmpty)
        let known = engine.evaluate(lifetime, at: Apple.day(25), knownAt: Apple.day(15))
        #expect(known.grants.first?.isActive == true && known.entitlements.first?.expiresAt == nil)
        #expect(engine.evaluate(lifetime, at: Apple.day(25)).entitlements.isEmpty)
    }

    @Test("grants survive a merge and stay with the customer; the set's order does not matter")
    func setSemantics() {
        var one = evidence(grantEnd: 30)
        var other = EvidenceSet()
        other.insert(GrantRevocation(grantID: "grant_a", revokedAt: Apple.day(12)))
        other.formUnion(one)
        one.insert(GrantRevocation(grantID: "grant_a", revokedAt: Apple.day(12)))
        #expect(one == other)
        #expect(one.hasCustomerEvidence && !EvidenceSet().hasCustomerEvidence)
        let decoded = try? JSONDecoder().decode(EvidenceSet.self, from: JSONEncoder().encode(one))
        #expect(decoded == one)
    }
}
