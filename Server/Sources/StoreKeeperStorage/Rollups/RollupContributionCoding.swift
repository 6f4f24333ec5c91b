import Foundation
import SubscriptionMetrics

/// How a subscriber's rollup contribution is stored (`metric_contributions.contribution_json`): a JSON array of
/// rows `[metric, day, product, storefront, environment, offer type, series, column, value]`, in key order.
enum RollupContributionCoding {
    /// One stored row.
    struct Row: Codable {
        var metric: String
        var day: Int
        var product: String
        var storefront: String
        var environment: String
        var offerType: String
        var series: String
        var column: Int
        var value: Int64

        init(from decoder: any Decoder) throws {
            var fields = try decoder.unkeyedContainer()
            metric = try fields.decode(String.self)
            day = try fields.decode(Int.self)
            product = try fields.decode(String.self)
            storefront = try fields.decode(String.self)
            environment = try fields.decode(String.self)
            offerType = try fields.decode(String.self)
            series = try fields.decode(String.self)
            column = try fields.decode(Int.self)
            value = try fields.decode(Int64.self)
        }

        init(_ key: RollupKey, _ value: Int64) {
            metric = key.metric.rawValue
            day = key.day
            product = key.product
            storefront = key.storefront
            environment = key.environment
            offerType = key.offerType
            series = key.series
            column = key.column.rawValue
            self.value = value
        }

        func encode(to encoder: any Encoder) throws {
            var fields = encoder.unkeyedContainer()
            try fields.encode(metric)
            try fields.encode(day)
            try fields.encode(product)
            try fields.encode(storefront)
            try fields.encode(environment)
            try fields.encode(offerType)
            try fields.encode(series)
            try fields.encode(column)
            try fields.encode(value)
        }
    }

    /// The stored JSON of a contribution.
    static func encode(_ contribution: [RollupKey: Int64]) throws -> String {
        let rows = contribution.sorted { $0.key < $1.key }.map { Row($0.key, $0.value) }
        return String(decoding: try JSONEncoder().encode(rows), as: UTF8.self)
    }

    /// A stored contribution, read back.
    /// - Throws: ``StorageError`` naming the subscriber when the JSON or a metric or column in it is not ours.
    static func decode(_ json: String, of user: String) throws -> [RollupKey: Int64] {
        let rows: [Row]
        do {
            rows = try JSONDecoder().decode([Row].self, from: Data(json.utf8))
        } catch {
            throw StorageError("the stored metric contribution of \(user) cannot be read: \(error)")
        }
        var result: [RollupKey: Int64] = [:]
        for row in rows {
            guard let metric = MetricName(rawValue: row.metric), let column = RollupColumn(rawValue: row.column) else {
                throw StorageError(
                    "the stored metric contribution of \(user) names metric \"\(row.metric)\" column \(row.column)")
            }
            let key = RollupKey(
                metric: metric, day: row.day, product: row.product, storefront: row.storefront,
                environment: row.environment, offerType: row.offerType, series: row.series, column: column)
            result[key, default: 0] += row.value
        }
        return result
    }
}
