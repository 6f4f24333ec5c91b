import AppStoreModels
import AppStoreSimulator
import Foundation
import StoreKeeperCLI
import SubscriptionEngine

/// A deterministic history of subscribers for measuring metric queries at scale: each customer subscribes on a
/// day spread over the months before `end`, half after a 7-day free trial (40 % converting), and renews monthly
/// (a fifth annually) until they turn auto-renew off (8 % a month), billing fails (3 %) or they are refunded (1 %).
/// Its evidence is what the store would hold after the App Store told it all — built directly, with no signing,
/// so 100,000 subscribers take minutes to store; the population check (`storekeeper simulate`) is where the
/// rates are verified against Apple's formats.
struct SyntheticHistory: Sendable {
    /// The seed: the same seed makes the same customers.
    let seed: UInt64
    /// How many months the history spans.
    let months: Int
    /// When it ends (the last instant any customer is observed).
    let end: Date

    /// Customer `number`'s app user id.
    static func customerID(_ number: Int) -> String { "bench-\(number)" }

    /// Customer `number`'s subscription id and evidence.
    func customer(_ number: Int) -> (originalTransactionID: String, evidence: EvidenceSet) {
        var random = SeededRandom(seed: seed &* 1_000_003 &+ UInt64(number))
        func unit() -> Double { Double.random(in: 0..<1, using: &random) }
        let day = 86_400.0
        let span = Double(months) * 30.4375 * day
        let start = Date(
            timeIntervalSince1970: end.addingTimeInterval(-span + unit() * span).timeIntervalSince1970.rounded())
        let annual = unit() < 0.2
        let product = annual ? "premium.annual" : (unit() < 0.5 ? "premium.monthly" : "basic.monthly")
        let price: Int64 = annual ? 79_990 : (product == "premium.monthly" ? 9_990 : 4_990)
        let currency = unit() < 0.25 ? "EUR" : "USD"
        let original = "9\(String(format: "%014d", number))"
        var evidence = EvidenceSet()
        var renewal = RenewalState(originalTransactionID: original, source: .signedData)
        renewal.productID = product
        renewal.willAutoRenew = true
        var index = 0
        func add(_ from: Date, _ to: Date, trial: Bool) -> Transaction {
            var transaction = Transaction(
                transactionID: index == 0 ? original : "\(original)\(index)", originalTransactionID: original,
                productID: product, source: .signedData)
            index += 1
            transaction.kind = .autoRenewable
            transaction.purchaseDate = from
            transaction.originalPurchaseDate = start
            transaction.expiresAt = to
            transaction.price = trial ? 0 : price
            transaction.currency = currency
            transaction.storefront = currency == "EUR" ? "DEU" : "USA"
            transaction.environment = .production
            transaction.offer = trial ? Offer(kind: .freeTrial) : nil
            transaction.subscriptionGroupID = "pro"
            transaction.observedAt = from  // told when it was bought (a later observation may add a refund)
            evidence.insert(transaction)
            return transaction
        }
        var periodStart = start
        if unit() < 0.5 {
            let trialEnd = start.addingTimeInterval(7 * day)
            _ = add(start, trialEnd, trial: true)
            periodStart = trialEnd
            if unit() >= 0.4 || trialEnd > end {
                renewal.willAutoRenew = false
                renewal.expirationIntent = .customerCancelled
                renewal.observedAt = min(trialEnd, end)
                evidence.insert(renewal)
                return (original, evidence)
            }
        }
        let length = (annual ? 365 : 30.4375) * day
        while periodStart <= end {
            var last = add(periodStart, periodStart.addingTimeInterval(length), trial: false)
            let draw = unit() * (annual ? 1.0 / 12 : 1)
            if draw < 0.01 {
                // A later observation of the same transaction: refunded.
                last.revokedAt = min(periodStart.addingTimeInterval(length * 0.3), end)
                last.revocationReason = RevocationReason(rawValue: 0)
                last.observedAt = last.revokedAt
                evidence.insert(last)
                renewal.willAutoRenew = false
                break
            } else if draw < 0.04 {
                renewal.willAutoRenew = false
                renewal.expirationIntent = .billingError
                break
            } else if draw < 0.12 {
                renewal.willAutoRenew = false
                renewal.expirationIntent = .customerCancelled
                break
            }
            periodStart = periodStart.addingTimeInterval(length)
        }
        renewal.observedAt = min(periodStart, end)
        evidence.insert(renewal)
        return (original, evidence)
    }
}
