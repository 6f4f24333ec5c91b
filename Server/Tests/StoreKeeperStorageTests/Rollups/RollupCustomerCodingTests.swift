import Foundation
import SubscriptionMetrics
import Testing

@testable import StoreKeeperStorage

/// A counted customer's folded runs read back exactly; a field holding a separator is refused when written, and a
/// damaged line is refused when read, naming the subscriber and the line.
@Suite struct RollupCustomerCodingTests {
    static func run(_ start: Double, storefront: String? = "DEU", product: String = "premium.monthly")
        -> FoldedPeriods.Run
    {
        let period = SubscriptionPeriod(
            productID: product, start: Date(timeIntervalSince1970: start),
            accessEnd: Date(timeIntervalSince1970: start + 2_678_400.25),
            expiresAt: Date(timeIntervalSince1970: start + 2_678_400.125), price: 9_990, currency: "EUR",
            storefront: storefront, environment: "Production", offerType: "none", isTrial: false, months: 1.0 / 3,
            paidDays: 31.000_002_893_518_518)
        return FoldedPeriods.Run(period: period, lastStart: Date(timeIntervalSince1970: start + 0.001))
    }

    @Test("round trip: runs of several subscriptions, a storefront unknown, a grace end, and none at all")
    func roundTrip() throws {
        let folded = FoldedPeriods(
            runs: ["1000", "2000"].reduce(into: [:]) { runs, original in
                runs[original] = [Self.run(1_767_225_600.5), Self.run(1_800_000_000, storefront: nil)]
            }, latestGraceEnd: Date(timeIntervalSince1970: 1_790_000_000.333))
        let text = try RollupCustomerCoding.encode(folded)
        #expect(try RollupCustomerCoding.decode(text, of: "u1") == folded)
        let empty = try RollupCustomerCoding.encode(FoldedPeriods())
        #expect(try RollupCustomerCoding.decode(empty, of: "u1") == FoldedPeriods())
    }

    @Test("a separator in a field is refused; a damaged line names the subscriber and the line")
    func refusals() throws {
        #expect(throws: StorageError.self) {
            try RollupCustomerCoding.encode(FoldedPeriods(runs: ["1": [Self.run(0, product: "a\u{1F}b")]]))
        }
        #expect(throws: StorageError.self) {
            try RollupCustomerCoding.encode(FoldedPeriods(runs: ["1\nx": [Self.run(0)]]))
        }
        let good = try RollupCustomerCoding.encode(FoldedPeriods(runs: ["1": [Self.run(0)]]))
        for damaged in ["x", good + "\nshort", good.replacingOccurrences(of: "9990", with: "many")] {
            do {
                _ = try RollupCustomerCoding.decode(damaged, of: "alice")
                Issue.record("\(damaged.prefix(40)) was read")
            } catch let error as StorageError {
                #expect("\(error)".contains("alice"), "\(error)")
                #expect("\(error)".contains("line "), "\(error)")
            }
        }
    }
}
