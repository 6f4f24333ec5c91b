import AppStoreModels
import Foundation
import SubscriptionEngine
import Testing

@testable import StoreKeeperStorage

/// Observations are written byte for byte as `JSONEncoder` with sorted keys writes them, every field set or
/// none; a date it cannot be sure to write the same way is left to `JSONEncoder`.
@Suite struct ObservationWriterTests {
    static func reference<Value: Encodable>(_ value: Value) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return Array(try encoder.encode(value))
    }

    static let dates: [Date] = [
        Date(timeIntervalSince1970: 1_767_225_600), Date(timeIntervalSince1970: 1_767_225_600.123),
        Date(timeIntervalSince1970: 1_697_679_936.0497297), Date(timeIntervalSinceReferenceDate: 0),
        Date(timeIntervalSinceReferenceDate: -12.5), Date(timeIntervalSinceReferenceDate: 0.000_25),
        Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 4_102_444_800.999),
    ]

    static func fullTransaction(_ date: Date) -> Transaction {
        var transaction = Transaction(
            transactionID: "2000000847061981", originalTransactionID: "o/\"1\"", productID: "pro\n", source: .signedData
        )
        transaction.kind = .autoRenewable
        transaction.subscriptionGroupID = "6F3A93AB"
        transaction.purchaseDate = date
        transaction.originalPurchaseDate = date.addingTimeInterval(-1)
        transaction.expiresAt = date.addingTimeInterval(2_592_000)
        transaction.revokedAt = date.addingTimeInterval(10.001)
        transaction.revocationReason = .unknown(42)
        transaction.revocationType = .unknown("PARTIAL_SOMETHING")
        transaction.isUpgraded = false
        transaction.offer = Offer(kind: .promotional, identifier: "spring\\sale")
        transaction.ownership = .familyShared
        transaction.environment = .sandbox
        transaction.storefront = "JPN"
        transaction.price = 230_000
        transaction.currency = "JPY"
        transaction.webOrderLineItemID = "0"
        transaction.appAccountToken = "7edea87d-98f0-42d0-9682-49ca81022f73"
        transaction.quantity = -3
        transaction.revocationPercentage = 50_000
        transaction.appTransactionID = "704289572311676241"
        transaction.previousOriginalTransactionID = "2000000847060000"
        transaction.billingPlan = .unknown("QUARTERLY")
        transaction.commitmentPeriod = 3
        transaction.commitmentPeriods = 12
        transaction.commitmentEndsAt = date.addingTimeInterval(31_536_000.25)
        transaction.commitmentPrice = 119_880
        transaction.observedAt = date
        return transaction
    }

    static func fullRenewal(_ date: Date) -> RenewalState {
        var renewal = RenewalState(originalTransactionID: "2000000335310644", source: .notificationV2)
        renewal.productID = "co.ringalarm.quarterly"
        renewal.autoRenewProductID = "é日本🙂"
        renewal.willAutoRenew = true
        renewal.expirationIntent = .unknown(9)
        renewal.isInBillingRetry = true
        renewal.gracePeriodExpiresAt = date
        renewal.priceIncreaseStatus = .unknown(7)
        renewal.offer = Offer(kind: .winBack)
        renewal.renewalDate = date.addingTimeInterval(0.5)
        renewal.environment = .unknown("Orbit")
        renewal.commitmentWillAutoRenew = false
        renewal.commitmentAutoRenewProductID = "pro.annual"
        renewal.commitmentRenewalDate = date.addingTimeInterval(31_536_000)
        renewal.observedAt = date
        return renewal
    }

    @Test("a transaction with every field, at many instants, is written as JSONEncoder writes it", arguments: dates)
    func fullTransactionMatches(_ date: Date) throws {
        let transaction = Self.fullTransaction(date)
        #expect(ObservationWriter.json(transaction) == (try Self.reference(transaction)))
    }

    @Test("renewal state with every field, at many instants, is written as JSONEncoder writes it", arguments: dates)
    func fullRenewalMatches(_ date: Date) throws {
        let renewal = Self.fullRenewal(date)
        #expect(ObservationWriter.json(renewal) == (try Self.reference(renewal)))
    }

    @Test("bare observations are written as JSONEncoder writes them")
    func bareMatch() throws {
        let transaction = Transaction(
            transactionID: "1", originalTransactionID: "1", productID: "p", source: .verifyReceipt)
        let renewal = RenewalState(originalTransactionID: "1", source: .serverAPI)
        #expect(ObservationWriter.json(transaction) == (try Self.reference(transaction)))
        #expect(ObservationWriter.json(renewal) == (try Self.reference(renewal)))
    }

    @Test("a date written with an exponent is left to JSONEncoder, and the evidence still encodes as it does")
    func exponentDeclined() throws {
        var transaction = Transaction(
            transactionID: "1", originalTransactionID: "1", productID: "p", source: .verifyReceipt)
        transaction.expiresAt = Date(timeIntervalSinceReferenceDate: 1e17)
        #expect(ObservationWriter.json(transaction) == nil)
        var evidence = EvidenceSet()
        evidence.insert(transaction)
        #expect(Array(try EvidenceEncoder().encode(evidence).utf8) == (try Self.reference(evidence)))
    }
}
