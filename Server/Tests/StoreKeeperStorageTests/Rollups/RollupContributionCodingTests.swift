import Foundation
import SubscriptionMetrics
import Testing

@testable import StoreKeeperStorage

/// A stored contribution reads back exactly; a key holding a separator is refused when written, and a damaged
/// line is refused when read, naming the subscriber and the line.
@Suite struct RollupContributionCodingTests {
    static func key(_ series: String, day: Int = 20_500, column: RollupColumn = .sum) -> RollupKey {
        RollupKey(
            metric: .revenue, day: day, product: "premium.monthly", storefront: "DEU", environment: "Production",
            offerType: "none", series: series, column: column)
    }

    @Test("round trip: every key and value, empty series and negative values too")
    func roundTrip() throws {
        let contribution: [RollupKey: Int64] = [
            Self.key("EUR"): 9_990_000, Self.key("", day: 20_501, column: .delta): -1_000_000,
            Self.key("amount EUR", column: .deltaOnTheDay): 42,
        ]
        let text = try RollupContributionCoding.encode(contribution)
        #expect(text.split(separator: "\n").count == 3)
        #expect(try RollupContributionCoding.decode(text, of: "u1") == contribution)
        #expect(try RollupContributionCoding.decode("", of: "u1").isEmpty)
    }

    @Test("a separator in a field is refused; a damaged line names the subscriber and the line")
    func refusals() throws {
        #expect(throws: StorageError.self) { try RollupContributionCoding.encode([Self.key("EUR\u{1F}x"): 1]) }
        #expect(throws: StorageError.self) { try RollupContributionCoding.encode([Self.key("EUR\nx"): 1]) }
        let good = try RollupContributionCoding.encode([Self.key("EUR"): 1])
        for damaged in [
            good + "\nnot a row", good.replacingOccurrences(of: "revenue", with: "happiness"),
            good.replacingOccurrences(of: "\u{1F}1", with: "\u{1F}x"),
        ] {
            do {
                _ = try RollupContributionCoding.decode(damaged, of: "alice")
                Issue.record("read a damaged contribution: \(damaged)")
            } catch let error as StorageError {
                #expect(error.reason.contains("alice") && error.reason.contains("line"), "\(error)")
            }
        }
    }
}
