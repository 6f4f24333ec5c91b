import Foundation
import StoreKeeperAPI
import StoreKeeperWire
import TestSupport
import Testing

@testable import StoreKeeperServer

/// The API's hand-written documents are byte for byte what the API's `JSONEncoder` writes: for random subscribers
/// and webhook events (every optional present and absent, strings with quotes, backslashes, slashes, control
/// characters and other scripts, dates with fractions of a second from 1970 to 9999), and it declines what it
/// cannot be sure of.
@Suite struct APIJSONWriterTests {
    static let encoder = APICoding.encoder()

    @Test func subscribersAreWrittenAsTheEncoderWritesThem() throws {
        var random = SeededGenerator(seed: 21)
        for _ in 0..<400 {
            let subscriber = Self.subscriber(&random)
            let written = try #require(JSONWriter.exactJSON(subscriber))
            let expected = try Self.encoder.encode(subscriber)
            #expect(
                String(decoding: written, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        }
    }

    @Test func webhookEventsAreWrittenAsTheEncoderWritesThem() throws {
        var random = SeededGenerator(seed: 18)
        for _ in 0..<300 {
            let event = WebhookEvent(
                id: Self.text(&random), type: Self.text(&random), createdAt: Self.date(&random),
                environment: Self.maybe(&random) { Self.text(&$0) }, app: Self.text(&random),
                appUserID: Self.text(&random), aliases: Self.list(&random) { Self.text(&$0) },
                originalTransactionID: Self.maybe(&random) { Self.text(&$0) },
                transactionID: Self.maybe(&random) { Self.text(&$0) }, productID: Self.text(&random),
                entitlements: Self.list(&random) { Self.text(&$0) },
                periodType: Self.maybe(&random) { Self.text(&$0) },
                purchasedAt: Self.maybe(&random) { Self.date(&$0) }, expiresAt: Self.maybe(&random) { Self.date(&$0) },
                price: Self.maybe(&random) { Int64.random(in: -10_000_000...10_000_000_000, using: &$0) },
                currency: Self.maybe(&random) { Self.text(&$0) },
                storeTimestamp: Self.maybe(&random) { Self.date(&$0) },
                cause: Self.text(&random), subscriber: Self.subscriber(&random))
            let written = try #require(JSONWriter.exactJSON(event))
            let expected = try Self.encoder.encode(event)
            #expect(String(decoding: written, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        }
    }

    @Test("a type's Encodable follows its one member statement: absent values written as null, omitted ones left out")
    func encodableFollowsTheMemberStatement() throws {
        let grant = Grant(
            id: "grant_1", entitlement: "pro", grantedAt: Date(timeIntervalSince1970: 0), expiresAt: nil,
            revokedAt: nil, reason: nil, active: true, explanation: [])
        let encoded = String(decoding: try Self.encoder.encode(grant), as: UTF8.self)
        #expect(encoded.contains(#""expires_at":null"#) && encoded.contains(#""reason":null"#), "\(encoded)")
        let offer = String(
            decoding: try Self.encoder.encode(SubscriptionOffer(kind: "introductory", identifier: nil)), as: UTF8.self)
        #expect(offer == #"{"kind":"introductory"}"#, "an absent identifier is omitted, not null")
        #expect(try APICoding.decoder().decode(Grant.self, from: Data(encoded.utf8)) == grant)
    }

    @Test func datesItCannotBeSureOfAreLeftToTheEncoder() {
        var subscriber = Subscriber(
            appUserID: "u", aliases: [], firstSeen: Date(timeIntervalSince1970: -1), entitlements: [],
            subscriptions: [], nonSubscriptions: [], introEligibility: [:])
        #expect(JSONWriter.exactJSON(subscriber) == nil, "before 1970")
        subscriber.firstSeen = Date(timeIntervalSince1970: 253_402_300_800)
        #expect(JSONWriter.exactJSON(subscriber) == nil, "after 9999")
        subscriber.firstSeen = Date(timeIntervalSince1970: 253_402_300_799.5)
        #expect(JSONWriter.exactJSON(subscriber) != nil, "the last second of 9999")
    }

    // MARK: - Random documents

    static func subscriber(_ random: inout SeededGenerator) -> Subscriber {
        Subscriber(
            appUserID: text(&random), aliases: list(&random) { text(&$0) }, firstSeen: maybe(&random) { date(&$0) },
            entitlements: list(&random) { random in
                Entitlement(
                    identifier: text(&random), productID: text(&random), expiresAt: maybe(&random) { date(&$0) },
                    grantedBy: text(&random))
            },
            subscriptions: list(&random) { subscription(&$0) },
            nonSubscriptions: list(&random) { random in
                Purchase(
                    transactionID: text(&random), productID: text(&random), kind: text(&random),
                    purchaseDate: maybe(&random) { date(&$0) }, expiresAt: maybe(&random) { date(&$0) },
                    revokedAt: maybe(&random) { date(&$0) }, grantsAccess: Bool.random(using: &random),
                    explanation: list(&random) { text(&$0) })
            },
            introEligibility: Dictionary(
                list(&random) { (text(&$0), text(&$0)) }, uniquingKeysWith: { first, _ in first }))
    }

    static func subscription(_ random: inout SeededGenerator) -> Subscription {
        var subscription = Subscription(
            originalTransactionID: text(&random), productID: text(&random), status: text(&random),
            latestTransactionID: text(&random))
        subscription.subscriptionGroupID = maybe(&random) { text(&$0) }
        subscription.expiresAt = maybe(&random) { date(&$0) }
        subscription.gracePeriodExpiresAt = maybe(&random) { date(&$0) }
        subscription.willAutoRenew = maybe(&random) { Bool.random(using: &$0) }
        subscription.autoRenewProductID = maybe(&random) { text(&$0) }
        subscription.expirationReason = maybe(&random) { text(&$0) }
        subscription.offer = maybe(&random) { SubscriptionOffer(kind: text(&$0), identifier: maybe(&$0) { text(&$0) }) }
        subscription.ownership = maybe(&random) { text(&$0) }
        subscription.priceIncreaseStatus = maybe(&random) { Int.random(in: -1...2, using: &$0) }
        subscription.environment = maybe(&random) { text(&$0) }
        subscription.storefront = maybe(&random) { text(&$0) }
        subscription.price = maybe(&random) { Int64.random(in: 0...99_990_000, using: &$0) }
        subscription.currency = maybe(&random) { text(&$0) }
        subscription.isUpgraded = Bool.random(using: &random)
        subscription.revokedAt = maybe(&random) { date(&$0) }
        subscription.revocationReason = maybe(&random) { Int.random(in: 0...1, using: &$0) }
        subscription.revocationType = maybe(&random) { text(&$0) }
        subscription.revocationPercentage = maybe(&random) { Int.random(in: 0...100_000, using: &$0) }
        subscription.previousOriginalTransactionID = maybe(&random) { text(&$0) }
        subscription.replacedByOriginalTransactionID = maybe(&random) { text(&$0) }
        subscription.billingPlan = maybe(&random) { text(&$0) }
        subscription.commitment = maybe(&random) { random in
            var commitment = SubscriptionCommitment()
            commitment.billingPeriod = maybe(&random) { Int.random(in: 1...12, using: &$0) }
            commitment.totalBillingPeriods = maybe(&random) { Int.random(in: 1...12, using: &$0) }
            commitment.endsAt = maybe(&random) { date(&$0) }
            commitment.price = maybe(&random) { Int64.random(in: 0...99_990_000, using: &$0) }
            commitment.willRenew = maybe(&random) { Bool.random(using: &$0) }
            commitment.renewsToProductID = maybe(&random) { text(&$0) }
            return commitment
        }
        subscription.consentRescindedAt = maybe(&random) { date(&$0) }
        subscription.explanation = list(&random) { text(&$0) }
        return subscription
    }

    /// Strings from pieces that stress escaping.
    static let pieces = [
        "a", "Z", "0", "_", "-", ".", " ", "\"", "\\", "/", "\n", "\r", "\t", "\u{08}", "\u{0C}", "\u{01}", "\u{1F}",
        "\u{7F}", "é", "日本", "🙂", "\u{2028}", "<", "&", "'", "com.example.pro",
    ]

    static func text(_ random: inout SeededGenerator) -> String {
        (0..<Int.random(in: 0...6, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
    }

    static func date(_ random: inout SeededGenerator) -> Date {
        switch Int.random(in: 0..<4, using: &random) {
        case 0: Date(timeIntervalSince1970: TimeInterval(Int.random(in: 0...4_102_444_800, using: &random)))
        case 1: Date(timeIntervalSince1970: Double(Int.random(in: 0...4_102_444_800_000, using: &random)) / 1_000)
        case 2: Date(timeIntervalSince1970: Double.random(in: 0..<253_402_300_800, using: &random))
        default:
            Date(timeIntervalSince1970: Double(Int.random(in: 1_600_000_000...1_900_000_000, using: &random)) + 0.999)
        }
    }

    static func maybe<Value>(_ random: inout SeededGenerator, _ make: (inout SeededGenerator) -> Value) -> Value? {
        Bool.random(using: &random) ? make(&random) : nil
    }

    static func list<Value>(_ random: inout SeededGenerator, _ make: (inout SeededGenerator) -> Value) -> [Value] {
        (0..<Int.random(in: 0...3, using: &random)).map { _ in make(&random) }
    }
}
