import Foundation
import SubscriptionEngine
import TestSupport
import Testing

/// Property: the state evaluated at an instant holds, unchanged, at every later instant before `nextChange`;
/// and it does change at some of those boundaries (so the bound is not trivially "now").
@Suite struct NextChangeTests {
    /// The state minus its evaluation instant.
    func answer(_ engine: SubscriptionEngine, _ evidence: EvidenceSet, _ instant: Date) -> CustomerState {
        var state = engine.evaluate(evidence, at: instant)
        state.evaluatedAt = .distantPast
        return state
    }

    @Test("every lifecycle's state is constant from an instant up to its next change", arguments: Scenarios.all)
    func constantUntilNextChange(_ scenario: Scenario) {
        let engine = SubscriptionEngine(configuration: scenario.configuration)
        let evidence = scenario.evidenceSet()
        var generator = SeededGenerator(seed: UInt64(truncatingIfNeeded: scenario.name.utf8.count * 7919))
        var instant = Apple.day(-2)
        let end = Apple.day(500)
        while instant < end {
            let state = answer(engine, evidence, instant)
            let next = engine.nextChange(evidence, after: instant) ?? end
            #expect(next > instant)
            let span = min(next, end).timeIntervalSince(instant)
            for _ in 0..<8 {
                let probe = instant.addingTimeInterval(Double.random(in: 0..<1, using: &generator) * span)
                #expect(
                    answer(engine, evidence, probe) == state, "\(scenario.name): \(instant) → \(probe) before \(next)")
            }
            instant = next
        }
    }

    @Test("a subscription's expiry is a change point, and nothing changes after the last date")
    func expiryIsAChangePoint() throws {
        let scenario = try #require(Scenarios.basics.first)
        let engine = SubscriptionEngine(configuration: scenario.configuration)
        let evidence = scenario.evidenceSet()
        #expect(engine.nextChange(evidence, after: Apple.day(30)) == Apple.day(37))
        #expect(answer(engine, evidence, Apple.day(36.9)) != answer(engine, evidence, Apple.day(37.1)))
        #expect(engine.nextChange(evidence, after: Apple.day(400)) == nil)
    }
}
