public import Foundation

/// A customer's refund request as the simulator's refund desk keeps it: Apple's `CONSUMPTION_REQUEST` sent to the
/// developer, the consumption information the developer answered, and the decision.
public struct SimulatedConsumptionRequest: Codable, Sendable, Hashable {
    /// How long the developer has to answer, from the request (Apple's 12 hours), on the simulator's clock.
    public static let answerWindow: TimeInterval = 12 * 3_600

    /// Apple's `consumptionRequestReason` (`UNINTENDED_PURCHASE`, `FULFILLMENT_ISSUE`…).
    public var reason: String
    /// When Apple asked.
    public var requestedAt: Date
    /// The consumption information the developer sent, exactly as received (`nil`: none yet).
    public var answer: String?
    /// When it was sent.
    public var answeredAt: Date?
    /// Which version of Send Consumption Information carried it (1 or 2).
    public var answerVersion: Int?
    /// What was decided: `REFUND_FULL`, `REFUND_PRORATED` or `REFUND_DECLINED` (`nil`: open).
    public var decision: String?
    /// When it was decided.
    public var decidedAt: Date?

    /// Whether the developer may still answer at `now`: undecided and within ``answerWindow``.
    public func isOpen(at now: Date) -> Bool {
        decision == nil && now <= requestedAt.addingTimeInterval(Self.answerWindow)
    }
}
