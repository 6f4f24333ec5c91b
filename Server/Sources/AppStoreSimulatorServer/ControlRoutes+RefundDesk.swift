import AppStoreSimulator
import Foundation
import Hummingbird

/// The refund desk's control routes: deciding a refund request now, and a transaction's request as
/// `GET /simulator/v1/transactions/{id}` shows it.
extension ControlRoutes {
    func addRefundDeskRoutes(to control: RouterGroup<BasicRequestContext>) {
        transactionVerb(control, "refund-decision") { id, _ in try await simulator.decideRefund(transactionID: id) }
    }

    /// A transaction as the control API shows it, with its refund request when one was made (`nil`: no such
    /// transaction).
    func transactionObject(_ id: String) async -> [String: Any]? {
        guard let transaction = await simulator.transaction(id) else { return nil }
        var object = Self.describe(transaction)
        if let request = await simulator.consumptionRequest(id) {
            object["consumptionRequest"] = Self.describe(request)
        }
        return object
    }

    /// A refund request: its reason and instants, the answer exactly as received, and the decision.
    static func describe(_ request: SimulatedConsumptionRequest) -> [String: Any] {
        let iso = ISO8601DateFormatter()
        var object: [String: Any] = [
            "reason": request.reason, "requestedAt": iso.string(from: request.requestedAt),
            "answerDeadline": iso.string(
                from: request.requestedAt.addingTimeInterval(SimulatedConsumptionRequest.answerWindow)),
        ]
        if let answer = request.answer { object["answer"] = answer }
        if let answered = request.answeredAt { object["answeredAt"] = iso.string(from: answered) }
        if let version = request.answerVersion { object["answerVersion"] = version }
        if let decision = request.decision { object["decision"] = decision }
        if let decided = request.decidedAt { object["decidedAt"] = iso.string(from: decided) }
        return object
    }
}
