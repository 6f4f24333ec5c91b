import Foundation
import SubscriptionMetrics

/// How a subscriber's rollup contribution is stored (`metric_contributions.contribution`): one line per row, in
/// key order, its fields `metric day product storefront environment offer-type series column value` separated by
/// U+001F, the lines by newlines. Plain text a person can read with a query, cheaper to write and read on every
/// write than JSON; none of its fields can hold either separator (they come from Apple's identifiers and our
/// names, and a row holding one is refused when written).
enum RollupContributionCoding {
    static let field: Character = "\u{1F}"

    /// The stored text of a contribution.
    /// - Throws: ``StorageError`` when a field holds a separator.
    static func encode(_ contribution: [RollupKey: Int64]) throws -> String {
        var lines: [String] = []
        lines.reserveCapacity(contribution.count)
        for (key, value) in contribution.sorted(by: { $0.key < $1.key }) {
            let texts = [key.product, key.storefront, key.environment, key.offerType, key.series]
            guard !texts.contains(where: { $0.contains(field) || $0.contains("\n") }) else {
                throw StorageError("a metric rollup key holds a separator: \(texts.map { $0.prefix(64) })")
            }
            lines.append(
                [
                    key.metric.rawValue, String(key.day), key.product, key.storefront, key.environment, key.offerType,
                    key.series, String(key.column.rawValue), String(value),
                ].joined(separator: String(field)))
        }
        return lines.joined(separator: "\n")
    }

    /// A stored contribution, read back.
    /// - Throws: ``StorageError`` naming the subscriber and the line when one is not ours.
    static func decode(_ text: String, of user: String) throws -> [RollupKey: Int64] {
        var result: [RollupKey: Int64] = [:]
        for (number, line) in text.split(separator: "\n").enumerated() {
            let fields = line.split(separator: field, omittingEmptySubsequences: false)
            guard fields.count == 9, let metric = MetricName(rawValue: String(fields[0])),
                let day = Int(fields[1]), let columnNumber = Int(fields[7]),
                let column = RollupColumn(rawValue: columnNumber), let value = Int64(fields[8])
            else {
                throw StorageError(
                    "the stored metric contribution of \(user) cannot be read at line \(number + 1): "
                        + "\"\(line.prefix(120))\"")
            }
            let key = RollupKey(
                metric: metric, day: day, product: String(fields[2]), storefront: String(fields[3]),
                environment: String(fields[4]), offerType: String(fields[5]), series: String(fields[6]),
                column: column)
            result[key, default: 0] += value
        }
        return result
    }
}
