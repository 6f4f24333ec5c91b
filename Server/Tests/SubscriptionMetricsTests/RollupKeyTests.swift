import SubscriptionMetrics
import Testing

/// Rollup keys are ordered as the tuple of their fields (metric name, day, product, storefront, environment,
/// offer type, series, column): every write sorts its keys in this order before it upserts them, which is what
/// keeps two PostgreSQL writers from locking the same rows in opposite orders.
@Suite struct RollupKeyTests {
    @Test func theOrderIsTheFieldsInTurn() {
        var random = SystemRandomNumberGenerator()
        let metrics = MetricName.allCases
        func key() -> RollupKey {
            RollupKey(
                metric: metrics[Int.random(in: 0..<3, using: &random)], day: Int.random(in: 0..<3, using: &random),
                product: ["a", "b", "é"][Int.random(in: 0..<3, using: &random)],
                storefront: ["USA", "DEU"][Int.random(in: 0..<2, using: &random)],
                environment: ["Production", "Sandbox"][Int.random(in: 0..<2, using: &random)],
                offerType: ["", "1"][Int.random(in: 0..<2, using: &random)],
                series: ["", "x"][Int.random(in: 0..<2, using: &random)],
                column: RollupColumn.allCases[Int.random(in: 0..<RollupColumn.allCases.count, using: &random)])
        }
        func fields(_ key: RollupKey) -> (String, Int, String, String, String, String, String, Int) {
            (
                key.metric.rawValue, key.day, key.product, key.storefront, key.environment, key.offerType,
                key.series, key.column.rawValue
            )
        }
        func tupleLess(_ a: RollupKey, _ b: RollupKey) -> Bool {
            let (l, r) = (fields(a), fields(b))
            if (l.0, l.1, l.2, l.3) != (r.0, r.1, r.2, r.3) { return (l.0, l.1, l.2, l.3) < (r.0, r.1, r.2, r.3) }
            return (l.4, l.5, l.6, l.7) < (r.4, r.5, r.6, r.7)
        }
        for _ in 0..<5_000 {
            let (a, b) = (key(), key())
            #expect((a < b) == tupleLess(a, b), "\(fields(a)) < \(fields(b))")
            #expect(!(a < b && b < a))
            #expect((a == b) == (!(a < b) && !(b < a)))
        }
    }
}
