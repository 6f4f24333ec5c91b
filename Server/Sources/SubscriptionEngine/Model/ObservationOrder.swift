import Foundation

/// The total order on observations that makes every merge independent of arrival order:
/// by observation time (unknown first), then source rank, then content as a last tie-break.
enum ObservationOrder {
    static func precedes(_ lhs: Transaction, _ rhs: Transaction) -> Bool {
        // At the same instant, a revocation is the later fact, whatever the sources (a refund is signed after the
        // purchase it refunds even when both carry the same millisecond, and a status fetch in that millisecond
        // may predate it).
        if lhs.observedAt == rhs.observedAt, (lhs.revokedAt == nil) != (rhs.revokedAt == nil) {
            return lhs.revokedAt == nil
        }
        return compare(
            lhs.observedAt, lhs.source, String(describing: lhs), rhs.observedAt, rhs.source, String(describing: rhs))
    }

    static func precedes(_ lhs: RenewalState, _ rhs: RenewalState) -> Bool {
        compare(
            lhs.observedAt, lhs.source, String(describing: lhs), rhs.observedAt, rhs.source, String(describing: rhs))
    }

    private static func compare(
        _ leftTime: Date?, _ leftSource: EvidenceSource, _ leftContent: @autoclosure () -> String,
        _ rightTime: Date?, _ rightSource: EvidenceSource, _ rightContent: @autoclosure () -> String
    ) -> Bool {
        let left = leftTime ?? .distantPast
        let right = rightTime ?? .distantPast
        if left != right { return left < right }
        if leftSource != rightSource { return leftSource < rightSource }
        return leftContent() < rightContent()
    }
}
