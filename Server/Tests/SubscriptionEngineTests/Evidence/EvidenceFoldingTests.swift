import Foundation
import SubscriptionEngine
import TestSupport
import Testing

/// Rule `superseded-history-folds`: what ``SubscriptionEngine/fold(_:at:)`` keeps gives the same answer, and the
/// same next change, as everything, at the fold's instant and at every instant after it; what it folds away is
/// history (past periods and replaced renewal info), so the kept part stops growing with renewals.
@Suite struct EvidenceFoldingTests {
    /// Instants from `start` on: the fold's own, every scenario instant after it, and a few in between.
    static func instants(from start: Double, _ days: [Double]) -> [Double] {
        let later = days.filter { $0 >= start }
        return Array(Set([start, start + 0.001, start + 1, start + 40, start + 400] + later + later.map { $0 + 0.5 }))
            .sorted()
    }

    static func same(_ engine: SubscriptionEngine, _ kept: EvidenceSet, _ all: EvidenceSet, at day: Double) -> Bool {
        let instant = Apple.day(day)
        return engine.evaluate(kept, at: instant) == engine.evaluate(all, at: instant)
            && engine.nextChange(kept, after: instant) == engine.nextChange(all, after: instant)
    }

    @Test(
        "every lifecycle scenario, folded at each of its instants, answers as before from then on",
        arguments: Scenarios.all)
    func scenarios(_ scenario: Scenario) {
        let engine = SubscriptionEngine(configuration: scenario.configuration)
        let all = scenario.evidenceSet()
        let days = scenario.expectations.map(\.day)
        for foldDay in Set(days + [days.min() ?? 0 - 1, (days.max() ?? 0) + 60]) {
            let split = engine.fold(all, at: Apple.day(foldDay))
            var union = split.kept
            union.formUnion(split.folded)
            let lossless = union == all
            #expect(lossless, "\(scenario.name): nothing is lost")
            for day in Self.instants(from: foldDay, days) {
                let same = Self.same(engine, split.kept, all, at: day)
                #expect(same, "\(scenario.name): folded at \(foldDay), asked at \(day)")
            }
        }
    }

    /// A subscriber renewing monthly `renewals` times, with renewal info at each renewal, an intro trial first,
    /// and (when asked) a refunded period and an upgrade to another product in the same group part-way.
    static func history(renewals: Int, refundAt: Int? = nil, upgradeAt: Int? = nil) -> EvidenceSet {
        var evidence = EvidenceSet()
        var product = "monthly"
        for period in 0...renewals {
            let bought = Double(period) * 30
            let id = period == 0 ? "1" : "1-\(period)"
            if period == upgradeAt {
                // The period before is upgraded away, the new product starts now.
                evidence.add(
                    transaction: Apple.transaction(
                        "1-\(period - 1)", original: "1", product: product, bought: bought - 30, expires: bought,
                        signed: bought, revoked: bought, upgraded: true))
                product = "monthly.premium"
            }
            evidence.add(
                transaction: Apple.transaction(
                    id, original: "1", product: product, bought: bought, expires: bought + 30, signed: bought,
                    offerType: period == 0 ? 1 : nil, discount: period == 0 ? "FREE_TRIAL" : nil,
                    revoked: period == refundAt ? bought + 3 : nil, revocationReason: period == refundAt ? 0 : nil))
            evidence.add(renewalInfo: Apple.renewal("1", product: product, signed: bought))
        }
        return evidence
    }

    @Test(
        "a long history keeps a handful of observations, answers as before, and stays the same size as it grows",
        arguments: [(0, nil, nil), (12, nil, nil), (60, 20, nil), (240, 100, 150)] as [(Int, Int?, Int?)])
    func longHistory(renewals: Int, refundAt: Int?, upgradeAt: Int?) {
        let engine = SubscriptionEngine(configuration: Scenario.defaultConfiguration)
        let all = Self.history(renewals: renewals, refundAt: refundAt, upgradeAt: upgradeAt)
        let now = Double(renewals) * 30 + 10
        let split = engine.fold(all, at: Apple.day(now))
        // Kept: the first (intro) period, the two latest, the refunded and upgraded ones, the latest of the old
        // product, and the newest renewal info.
        #expect(split.kept.transactions.count <= 6, "\(split.kept.transactions.map(\.transactionID).sorted())")
        #expect(split.kept.renewals.count == 1)
        #expect(split.kept.transactions.count + split.folded.transactions.count == all.transactions.count)
        for day in Self.instants(from: now, [now + 20, now + 25, now + 31]) {
            let same = Self.same(engine, split.kept, all, at: day)
            #expect(same, "\(renewals) renewals, asked at \(day)")
        }
        // A renewal after the fold: the kept part with it answers as everything with it.
        let next = Double(renewals + 1) * 30
        var more = EvidenceSet()
        more.add(
            transaction: Apple.transaction(
                "1-\(renewals + 1)", original: "1", product: upgradeAt == nil ? "monthly" : "monthly.premium",
                bought: next, expires: next + 30, signed: next))
        var keptThenMore = split.kept
        keptThenMore.formUnion(more)
        var allThenMore = all
        allThenMore.formUnion(more)
        let same = Self.same(engine, keptThenMore, allThenMore, at: next + 1)
        #expect(same, "a renewal after the fold")
        #expect(
            engine.fold(keptThenMore, at: Apple.day(next + 1)).kept.transactions.count <= split.kept.transactions.count
                + 1)
    }

    @Test("nothing observed after the fold's instant, and no period still running, is folded")
    func futureIsKept() {
        let engine = SubscriptionEngine(configuration: Scenario.defaultConfiguration)
        let all = Self.history(renewals: 5)
        // Folded in the middle of period 3: periods 3–5 are not over (or not bought yet) and stay.
        let split = engine.fold(all, at: Apple.day(3 * 30 + 10))
        let kept = Set(split.kept.transactions.map(\.transactionID))
        #expect(kept.isSuperset(of: ["1", "1-3", "1-4", "1-5"]))
        #expect(Set(split.folded.transactions.map(\.transactionID)) == ["1-1"], "1-2 is the second latest known")
        #expect(split.folded.renewals.count == 3, "renewal info of periods 0–2, replaced by period 3's")
    }
}
