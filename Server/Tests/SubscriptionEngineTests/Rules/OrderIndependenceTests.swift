import Foundation
import SubscriptionEngine
import TestSupport
import Testing

/// Property: for random permutations and duplications of a lifecycle's evidence, the state is identical.
@Suite struct OrderIndependenceTests {
    @Test(
        "permuted and duplicated evidence gives the identical state at every instant, as known then and as it happened",
        arguments: Scenarios.all)
    func permutations(_ scenario: Scenario) {
        let engine = SubscriptionEngine(configuration: scenario.configuration)
        let baseline = scenario.evidenceSet()
        var generator = SeededGenerator(
            seed: UInt64(truncatingIfNeeded: scenario.name.utf8.reduce(5381) { ($0 &* 33) &+ Int($1) }))
        let expectations = scenario.expectations.flatMap { expectation in
            [Expectation.View.asKnownThen, .asItHappened].map { view in
                var both = expectation
                both.view = view
                return both
            }
        }
        let expected = expectations.map { $0.state(engine, baseline) }
        for _ in 0..<30 {
            var order = Array(scenario.evidence.indices).shuffled(using: &generator)
            for _ in 0..<Int.random(in: 0...3, using: &generator) {
                order.insert(
                    order[Int.random(in: 0..<order.count, using: &generator)],
                    at: Int.random(in: 0...order.count, using: &generator))
            }
            let shuffled = scenario.evidenceSet(order: order)
            #expect(shuffled == baseline)
            for (expectation, state) in zip(expectations, expected) {
                #expect(expectation.state(engine, shuffled) == state, "\(scenario.name): order \(order)")
            }
        }
    }

    @Test("merging observations one by one in any order gives the same transaction")
    func mergeIsOrderFree() {
        let observations = Scenarios.refunds.flatMap { scenario in
            scenario.evidenceSet().transactions.filter { $0.transactionID == "1" }
        }
        var generator = SeededGenerator(seed: 42)
        let baseline = Transaction.merged(observations)
        for _ in 0..<200 {
            #expect(Transaction.merged(observations.shuffled(using: &generator)) == baseline)
        }
    }
}
