import Foundation
import SubscriptionMetrics

/// What rollups keep of one customer they count (`metric_customers`): its contribution's fingerprint
/// (``MetricRollup/fingerprint(_:)``), so a check names the customer whose rows drifted, and its folded history as
/// runs (``FoldedPeriods``), so a write counts its change without reading the history. A customer without a row
/// contributes nothing to the rollups.
struct RollupCustomer: Equatable {
    /// The fingerprint of the customer's whole contribution.
    var fingerprint: Int64
    /// The customer's folded history, as runs.
    var folded: FoldedPeriods
}

/// How ``RollupCustomer/folded`` is stored (`metric_customers.folded`): a first line holding the latest folded
/// grace end (empty without one), then one line per run, its fields separated by U+001F — plain text, read and
/// written on every write, far cheaper than JSON. Dates are seconds since 1970 written so they read back exactly.
enum RollupCustomerCoding {
    static let field: Character = "\u{1F}"

    /// The stored text of `folded`.
    /// - Throws: ``StorageError`` when a field holds a separator.
    static func encode(_ folded: FoldedPeriods) throws -> String {
        var lines = [folded.latestGraceEnd.map { String($0.timeIntervalSince1970) } ?? ""]
        for (original, runs) in folded.runs.sorted(by: { $0.key < $1.key }) {
            for run in runs {
                let period = run.period
                let texts = [
                    original, period.productID, period.currency, period.storefront ?? "", period.environment,
                    period.offerType,
                ]
                guard !texts.contains(where: { $0.contains(field) || $0.contains("\n") }) else {
                    throw StorageError("a folded period's field holds a separator: \(texts.map { $0.prefix(64) })")
                }
                let numbers = [
                    period.start, period.accessEnd, period.expiresAt, run.lastStart,
                ].map { String($0.timeIntervalSince1970) }
                lines.append(
                    (texts + numbers + [
                        String(period.paidDays), String(period.price),
                        period.isTrial ? "1" : "0", String(period.months), period.storefront == nil ? "0" : "1",
                    ]).joined(separator: String(field)))
            }
        }
        return lines.joined(separator: "\n")
    }

    /// Stored runs, read back.
    /// - Throws: ``StorageError`` naming the subscriber and the line when one is not ours.
    static func decode(_ text: String, of user: String) throws -> FoldedPeriods {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var folded = FoldedPeriods()
        func failure(_ number: Int) -> StorageError {
            StorageError(
                "the stored folded periods of \(user) cannot be read at line \(number + 1): "
                    + "\"\(lines[number].prefix(120))\"")
        }
        if let first = lines.first, !first.isEmpty {
            guard let seconds = Double(first) else { throw failure(0) }
            folded.latestGraceEnd = Date(timeIntervalSince1970: seconds)
        }
        for (number, line) in lines.enumerated().dropFirst() {
            let fields = line.split(separator: field, omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 15, let start = Double(fields[6]), let accessEnd = Double(fields[7]),
                let expires = Double(fields[8]), let lastStart = Double(fields[9]), let paid = Double(fields[10]),
                let price = Int64(fields[11]), let months = Double(fields[13])
            else { throw failure(number) }
            let period = SubscriptionPeriod(
                productID: fields[1], start: Date(timeIntervalSince1970: start),
                accessEnd: Date(timeIntervalSince1970: accessEnd), expiresAt: Date(timeIntervalSince1970: expires),
                price: price, currency: fields[2], storefront: fields[14] == "1" ? fields[3] : nil,
                environment: fields[4], offerType: fields[5], isTrial: fields[12] == "1", months: months,
                paidDays: paid)
            folded.runs[fields[0], default: []].append(
                FoldedPeriods.Run(period: period, lastStart: Date(timeIntervalSince1970: lastStart)))
        }
        return folded
    }
}
