import AppStoreModels
public import Foundation

/// The refund desk: Apple asks the developer about a customer's refund request (`CONSUMPTION_REQUEST`), takes the
/// developer's consumption information within 12 hours (Send Consumption Information, validated as Apple
/// documents it), and decides: what the developer preferred, or a full refund when it said nothing. Apple's real
/// decision is Apple's own; this one follows the developer's preference so an app's handling can be tested.
extension AppStoreSimulator {
    /// The delivery statuses Send Consumption Information (v2) takes.
    static let deliveryStatuses: Set<String> = [
        "DELIVERED", "UNDELIVERED_QUALITY_ISSUE", "UNDELIVERED_WRONG_ITEM", "UNDELIVERED_SERVER_OUTAGE",
        "UNDELIVERED_OTHER",
    ]
    /// The refund preferences it takes.
    static let refundPreferences: Set<String> = ["DECLINE", "GRANT_FULL", "GRANT_PRORATED"]

    /// Apple asks the developer for consumption information about a refund request (CONSUMPTION_REQUEST); the
    /// request stays open for 12 hours of the simulator's clock.
    public func requestConsumption(transactionID: String, reason: String = "UNINTENDED_PURCHASE") throws {
        advance()
        guard let transaction = transactions[transactionID] else {
            throw SimulatorError.notFound("transaction", transactionID)
        }
        let now = clock.now()
        consumptionRequests[transactionID] = SimulatedConsumptionRequest(reason: reason, requestedAt: now)
        emit(
            "CONSUMPTION_REQUEST", nil, v1: "CONSUMPTION_REQUEST", transaction: transaction,
            subscription: subscriptions[transaction.originalTransactionID], at: now, consumptionReason: reason)
    }

    /// The refund request about a transaction, open or decided (`nil`: none was made).
    public func consumptionRequest(_ transactionID: String) -> SimulatedConsumptionRequest? {
        advance()
        return consumptionRequests[transactionID]
    }

    /// Send Consumption Information, v1 (Apple's `ConsumptionRequest` of numbers) or v2 (`customerConsented`,
    /// `sampleContentProvided` and `deliveryStatus` required; `consumptionPercentage` in milliunits, 0–100000;
    /// `refundPreference`), for a transaction with an open refund request: recorded as sent, as its answer.
    /// - Throws: Apple's codes where Apple publishes one (4000035 consent not given, 4000036 delivery status,
    ///   4000041 sample content), its general 4000000 otherwise: a body it cannot read, a percentage or
    ///   preference out of range, or no open request (Apple documents no code for these).
    public func sendConsumptionInformation(transactionID: String, bundleID: String, body: Data, version: Int = 1)
        throws(AppStoreAPIError)
    {
        advance()
        _ = try customerTransaction(transactionID, bundleID: bundleID)
        try Self.checkConsumption(body, version: version)
        let now = clock.now()
        guard var request = consumptionRequests[transactionID], request.isOpen(at: now) else {
            throw AppStoreAPIError(
                httpStatus: 400, errorCode: 4_000_000,
                errorMessage: "Invalid request: no open consumption request for this transaction.")
        }
        request.answer = String(decoding: body, as: UTF8.self)
        request.answeredAt = now
        request.answerVersion = version
        consumptionRequests[transactionID] = request
        consumptionInfo[transactionID] = body
        revision &+= 1
    }

    /// Refuses a consumption body as Apple does.
    static func checkConsumption(_ body: Data, version: Int) throws(AppStoreAPIError) {
        guard let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] else {
            throw .invalidRequest
        }
        guard object["customerConsented"] as? Bool == true else { throw .invalidCustomerConsented }
        guard version >= 2 else {
            guard (try? JSONDecoder().decode(ConsumptionRequest.self, from: body)) != nil else { throw .invalidRequest }
            return
        }
        guard object["sampleContentProvided"] is Bool else { throw .invalidSampleContentProvided }
        guard let delivery = object["deliveryStatus"] as? String, deliveryStatuses.contains(delivery) else {
            throw .invalidDeliveryStatus
        }
        if let percentage = object["consumptionPercentage"] {
            guard let value = percentage as? Int, !(percentage is Bool), (0...100_000).contains(value) else {
                throw .invalidRequest
            }
        }
        if let preference = object["refundPreference"] {
            guard let value = preference as? String, refundPreferences.contains(value) else { throw .invalidRequest }
        }
    }

    /// Decides a transaction's refund request now: `DECLINE` → REFUND_DECLINED; `GRANT_PRORATED` → a REFUND with
    /// `revocationPercentage` 100 % less the consumption; `GRANT_FULL`, no preference or no answer → a full REFUND.
    /// - Returns: The decision (`REFUND_DECLINED`, `REFUND_PRORATED` or `REFUND_FULL`).
    @discardableResult
    public func decideRefund(transactionID: String) throws -> String {
        advance()
        return try decide(transactionID, at: clock.now())
    }

    func decide(_ transactionID: String, at now: Date) throws -> String {
        guard var request = consumptionRequests[transactionID], request.decision == nil else {
            throw SimulatorError(
                .noRefundRequest, "transaction \(transactionID) has no open refund request", kind: .conflict)
        }
        let answer = request.answer.flatMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
        let preference = Self.preference(answer, version: request.answerVersion ?? 2)
        let decision: String
        switch preference {
        case "DECLINE":
            guard let transaction = transactions[transactionID] else {
                throw SimulatorError.notFound("transaction", transactionID)
            }
            emit(
                "REFUND_DECLINED", nil, v1: nil, transaction: transaction,
                subscription: subscriptions[transaction.originalTransactionID], at: now)
            decision = "REFUND_DECLINED"
        case "GRANT_PRORATED":
            let consumed = answer?["consumptionPercentage"] as? Int ?? 0
            try applyRefund(transactionID: transactionID, reason: 0, proratedPercentage: 100_000 - consumed)
            decision = "REFUND_PRORATED"
        default:
            try applyRefund(transactionID: transactionID, reason: 0, proratedPercentage: nil)
            decision = "REFUND_FULL"
        }
        request.decision = decision
        request.decidedAt = now
        consumptionRequests[transactionID] = request
        revision &+= 1
        return decision
    }

    /// The developer's preference in an answer: v2's name, or v1's number (1 grant, 2 decline).
    static func preference(_ answer: [String: Any]?, version: Int) -> String? {
        guard let answer else { return nil }
        if version >= 2 { return answer["refundPreference"] as? String }
        switch answer["refundPreference"] as? Int {
        case 1: return "GRANT_FULL"
        case 2: return "DECLINE"
        default: return nil
        }
    }

    /// Decides every request whose 12 hours closed by `now` (as Apple does without waiting for anyone).
    func decideLapsedRefundRequests(now: Date) {
        for id in consumptionRequests.keys.sorted() {
            guard let request = consumptionRequests[id], request.decision == nil,
                request.requestedAt.addingTimeInterval(SimulatedConsumptionRequest.answerWindow) < now
            else { continue }
            _ = try? decide(id, at: now)
        }
    }
}
