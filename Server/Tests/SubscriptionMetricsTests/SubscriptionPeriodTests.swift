import Foundation
import Testing

@testable import SubscriptionMetrics

/// A period's value is what happened; what a rollup contribution numbers on it for itself is no part of it.
@Suite struct SubscriptionPeriodTests {
    @Test("two periods that differ only in their rollup dimensions' number are equal and hash alike")
    func scratchIsNoPartOfTheValue() {
        let plain = ConversionToPayingTests.period(3)
        var numbered = plain
        numbered.rollupDimensions = 7
        #expect(numbered.rollupDimensions == 7 && plain.rollupDimensions == -1)
        #expect(numbered == plain)
        #expect(Set([plain, numbered]).count == 1)
        var other = plain
        other.price += 1
        #expect(other != plain, "a field of the period still tells them apart")
    }
}
