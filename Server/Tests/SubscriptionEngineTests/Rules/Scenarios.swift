import AppStoreModels
import Foundation
import SubscriptionEngine

private typealias A = Apple

/// The lifecycle table. Each scenario is evidence as Apple would send it plus what must hold at instants
/// (days after 2024-01-01).
enum Scenarios {
    static let all: [Scenario] = basics + billing + refunds + planChanges + offers + sources + purchases + ordering

    static let basics: [Scenario] = [
        Scenario(
            name: "trial → paid → cancel → expire",
            evidence: [
                .transaction(A.transaction("1", bought: 0, expires: 7, offerType: 1, discount: "FREE_TRIAL")),
                .transaction(A.transaction("2", original: "1", bought: 7, expires: 37)),
                .renewal(A.renewal("1", autoRenew: false, signed: 20)),
                .renewal(A.renewal("1", autoRenew: false, signed: 37, intent: 1)),
            ],
            expectations: [
                .init(day: 3, status: .active, expires: 7, offer: .freeTrial, entitlements: ["pro": 7]),
                .init(day: 10, status: .active, expires: 37, offer: nil),
                .init(day: 25, status: .active, willAutoRenew: false),
                .init(day: 40, status: .expired, expires: 37, reason: .voluntary, entitlements: [:]),
            ]),
        Scenario(
            name: "a monthly subscription renews three times",
            evidence: [
                .transaction(A.transaction("1", bought: 0, expires: 30)),
                .transaction(A.transaction("2", original: "1", bought: 30, expires: 60)),
                .transaction(A.transaction("3", original: "1", bought: 60, expires: 90)),
                .transaction(A.transaction("4", original: "1", bought: 90, expires: 120)),
            ],
            expectations: [
                .init(day: 15, status: .active, expires: 30), .init(day: 45, status: .active, expires: 60),
                .init(day: 75, status: .active, expires: 90), .init(day: 119, status: .active, expires: 120),
                .init(day: 121, status: .expired, expires: 120, reason: .some(nil)),
            ]),
        Scenario(
            name: "auto-renew turned off keeps access to the end of the period",
            evidence: [
                .transaction(A.transaction("1", bought: 0, expires: 30)),
                .renewal(A.renewal("1", autoRenew: false, signed: 5)),
            ],
            expectations: [
                .init(day: 10, status: .active, willAutoRenew: false, entitlements: ["pro": 30]),
                .init(day: 31, status: .expired, reason: .voluntary),
            ]),
        Scenario(
            name: "nothing before the first purchase",
            evidence: [.transaction(A.transaction("1", bought: 10, expires: 40))],
            expectations: [.init(day: 5, noSubscription: true), .init(day: 11, status: .active)]),
        Scenario(
            name: "expired with no renewal info has no known reason",
            evidence: [.transaction(A.transaction("1", bought: 0, expires: 30))],
            expectations: [.init(day: 31, status: .expired, reason: .some(nil), entitlements: [:])]),
        Scenario(
            name: "product unavailable at renewal",
            evidence: [
                .transaction(A.transaction("1", bought: 0, expires: 30)),
                .renewal(A.renewal("1", autoRenew: false, signed: 30, intent: 4)),
            ],
            expectations: [.init(day: 31, status: .expired, reason: .productUnavailable)]),
        Scenario(
            name: "another expiration reason",
            evidence: [
                .transaction(A.transaction("1", bought: 0, expires: 30)),
                .renewal(A.renewal("1", autoRenew: false, signed: 30, intent: 5)),
            ],
            expectations: [.init(day: 31, status: .expired, reason: .other)]),
    ]

    static let billing: [Scenario] = [
        Scenario(
            name: "billing failure → grace period → recover",
            evidence: [
                .transaction(A.transaction("1", bought: 0, expires: 30)),
                .renewal(A.renewal("1", signed: 30, billingRetry: true, graceUntil: 46)),
                .transaction(A.transaction("2", original: "1", bought: 35, expires: 65)),
                .renewal(A.renewal("1", signed: 35, billingRetry: false)),
            ],
            expectations: [
                .init(day: 31, status: .inGracePeriod, graceUntil: 46, entitlements: ["pro": 46]),
                .init(day: 36, status: .active, expires: 65, entitlements: ["pro": 65]),
            ]),
        Scenario(
            name: "billing failure → billing retry → expire (billing error)",
            evidence: [
                .transaction(A.transaction("1", bought: 0, expires: 30)),
                .renewal(A.renewal("1", signed: 30, billingRetry: true)),
                .renewal(A.renewal("1", autoRenew: false, signed: 90, intent: 2, billingRetry: false)),
            ],
            expectations: [
                .init(day: 31, status: .inBillingRetry, entitlements: [:]),
                .init(day: 91, status: .expired, reason: .billingError, entitlements: [:]),
            ]),
        Scenario(
            name: "grace period expires into billing retry",
            evidence: [
                .transaction(A.transaction("1", bought: 0, expires: 30)),
                .renewal(A.renewal("1", signed: 30, billingRetry: true, graceUntil: 33)),
                .renewal(A.renewal("1", signed: 33, billingRetry: true, graceUntil: 33)),
            ],
            expectations: [
                .init(day: 32, status: .inGracePeriod, graceUntil: 33),
                .init(day: 34, status: .inBillingRetry, entitlements: [:]),
            ]),
        Scenario(
            name: "billing retry without grace → recover",
            evidence: [
                .transaction(A.transaction("1", bought: 0, expires: 30)),
                .renewal(A.renewal("1", signed: 30, billingRetry: true)),
                .transaction(A.transaction("2", original: "1", bought: 40, expires: 70)),
                .renewal(A.renewal("1", signed: 40, billingRetry: false)),
            ],
            expectations: [
                .init(day: 35, status: .inBillingRetry), .init(day: 41, status: .active, expires: 70),
            ]),
        Scenario(
            name: "renewal info from before the current period is not used (stale)",
            evidence: [
                .transaction(A.transaction("1", bought: 0, expires: 30)),
                .renewal(A.renewal("1", signed: 30, billingRetry: true)),
                .transaction(A.transaction("2", original: "1", bought: 35, expires: 65)),
            ],
            expectations: [
                .init(day: 36, status: .active),
                .init(
                    day: 70, status: .expired,
                    check: { state in
                        state.subscriptions[0].explanation.contains { $0.contains("stale-renewal-info-ignored") }
                    }),
            ]),
        Scenario(
            name: "V2 notifications: SUBSCRIBED, DID_RENEW, DID_FAIL_TO_RENEW (GRACE_PERIOD)",
            evidence: [
                .notificationV2(
                    A.notificationV2("SUBSCRIBED", subtype: "INITIAL_BUY", signed: 0),
                    A.transaction("1", bought: 0, expires: 30), A.renewal("1", signed: 0)),
                .notificationV2(
                    A.notificationV2("DID_RENEW", signed: 30),
                    A.transaction("2", original: "1", bought: 30, expires: 60), A.renewal("1", signed: 30)),
                .notificationV2(
                    A.notificationV2("DID_FAIL_TO_RENEW", subtype: "GRACE_PERIOD", signed: 60),
                    A.transaction("2", original: "1", bought: 30, expires: 60, signed: 60),
                    A.renewal("1", signed: 60, billingRetry: true, graceUntil: 76)),
            ],
            expectations: [
                .init(day: 45, status: .active, expires: 60),
                .init(day: 61, status: .inGracePeriod, graceUntil: 76, entitlements: ["pro": 76]),
                .init(day: 77, status: .inBillingRetry),
            ]),
    ]

    static let refunds: [Scenario] = [
        Scenario(
            name: "refund of the current period revokes from the refund on",
            evidence: [
                .transaction(A.transaction("1", bought: 0, expires: 30)),
                .transaction(A.transaction("2", original: "1", bought: 30, expires: 60)),
                .transaction(
                    A.transaction(
                        "2", original: "1", bought: 30, expires: 60, signed: 45, revoked: 45,
                        revocationReason: 1, revocationType: "REFUND_FULL")),
            ],
            expectations: [
                .init(day: 40, status: .active, expires: 60),
                .init(
                    day: 46, status: .revoked, expires: 45, entitlements: [:],
                    check: { state in
                        state.subscriptions[0].revocationReason == .appIssue
                            && state.subscriptions[0].explanation.contains { $0.contains("reason: app issue") }
                    }),
            ]),
        Scenario(
            name: "refund of an old renewal leaves the current period",
            evidence: [
                .transaction(A.transaction("1", bought: 0, expires: 30)),
                .transaction(A.transaction("2", original: "1", bought: 30, expires: 60)),
                .transaction(A.transaction("1", bought: 0, expires: 30, signed: 40, revoked: 40, revocationReason: 0)),
            ],
            expectations: [.init(day: 45, status: .active, expires: 60, entitlements: ["pro": 60])]),
        Scenario(
            name: "a refund signed in the same millisecond as another source's observation still revokes",
            evidence: [
                .transaction(A.transaction("1", bought: 0, expires: 30, signed: 0)),
                .notificationV2(
                    A.notificationV2("REFUND", signed: 0),
                    A.transaction("1", bought: 0, expires: 30, signed: 0, revoked: 0, revocationReason: 1), nil),
            ],
            expectations: [.init(day: 1, status: .revoked, entitlements: [:])]),
        Scenario(
            name: "refund reversed restores access",
            evidence: [
                .transaction(A.transaction("1", bought: 0, expires: 30)),
                .transaction(A.transaction("1", bought: 0, expires: 30, signed: 10, revoked: 10, revocationReason: 0)),
                .transaction(A.transaction("1", bought: 0, expires: 30, signed: 12)),
            ],
            expectations: [
                .init(day: 11, status: .revoked, entitlements: [:]), .init(day: 13, status: .active, expires: 30),
            ]),
        Scenario(
            name: "prorated refund of an annual plan",
            evidence: [
                .transaction(A.transaction("1", product: "annual", bought: 0, expires: 365)),
                .transaction(
                    A.transaction(
                        "1", product: "annual", bought: 0, expires: 365, signed: 100, revoked: 100,
                        revocationReason: 0, revocationType: "REFUND_PRORATED",
                        extra: ["revocationPercentage": 72_603])),
            ],
            expectations: [
                .init(
                    day: 99, status: .active, expires: 365, check: { $0.subscriptions[0].revocationPercentage == nil }),
                .init(
                    day: 101, status: .revoked, expires: 100,
                    check: {
                        $0.subscriptions[0].revocationType == .refundProrated
                            && $0.subscriptions[0].revocationPercentage == 72_603
                            && $0.subscriptions[0].explanation.contains { $0.contains("refunded (prorated, 72.603 %)") }
                    }),
            ]),
        Scenario(
            name:
                "a commitment plan: the customer cancels in period 2; billing runs to the commitment's end, then it expires",
            evidence: commitmentPlan(),
            expectations: [
                .init(
                    day: 40, status: .active, expires: 60,
                    check: { state in
                        let s = state.subscriptions[0]
                        return s.billingPlan == .monthly && s.willAutoRenew == true && s.commitment?.billingPeriod == 2
                            && s.commitment?.totalBillingPeriods == 12 && s.commitment?.willRenew == false
                            && s.commitment?.endsAt == A.day(360) && s.commitment?.price == 89_880
                            && s.explanation.contains { $0.hasPrefix("[commitment-bills-to-its-end] billed monthly") }
                    }),
                .init(
                    day: 361, status: .expired, expires: 360,
                    check: { state in
                        state.subscriptions[0].expirationReason == .voluntary
                            && state.subscriptions[0].commitment?.billingPeriod == 12
                    }),
            ]),
        Scenario(
            name: "history: a response made on day 30 proves the purchase of day 1 active on day 10",
            evidence: [
                .verifyReceipt(
                    A.verifyReceipt(requested: 30, items: [A.receiptItem("1", original: "1", bought: 1, expires: 31)]))
            ],
            expectations: [
                .init(day: 10, status: .active, expires: 31, entitlements: ["pro": 31], view: .asItHappened),
                .init(day: 10, entitlements: [:], noSubscription: true, view: .asKnownThen),
                .init(day: 0.5, entitlements: [:], noSubscription: true, view: .asItHappened),
                .init(day: 30.5, status: .active, expires: 31),
            ]),
        Scenario(
            name: "history: an upgrade, a cancellation and a refund seen only in a later response",
            evidence: [
                .transaction(A.transaction("1", bought: 0, expires: 30)),
                .verifyReceipt(
                    A.verifyReceipt(
                        requested: 70,
                        items: [
                            A.receiptItem("1", original: "1", bought: 0, expires: 30, cancelled: 12, upgraded: true),
                            A.receiptItem("2", original: "1", product: "premium", bought: 12, expires: 42),
                            A.receiptItem(
                                "3", original: "1", product: "premium", bought: 42, expires: 72, cancelled: 50),
                        ],
                        pending: [A.pendingRenewal("1", product: "premium", autoRenew: false, intent: 1)])),
            ],
            expectations: [
                // As it happened: monthly until the upgrade on day 12, premium after, refunded on day 50.
                .init(day: 10, status: .active, product: "monthly", expires: 30, view: .asItHappened),
                .init(day: 20, status: .active, product: "premium", expires: 42, view: .asItHappened),
                .init(day: 45, status: .active, product: "premium", expires: 72, view: .asItHappened),
                .init(day: 55, status: .revoked, product: "premium", entitlements: [:], view: .asItHappened),
                // As known then: only the day-0 transaction until the response of day 70.
                .init(day: 20, status: .active, product: "monthly", expires: 30, view: .asKnownThen),
                .init(day: 55, status: .expired, product: "monthly", view: .asKnownThen),
                .init(day: 71, status: .revoked, product: "premium", view: .asKnownThen),
            ]),
        Scenario(
            name: "history: a cancellation seen only after the expiry explains it",
            evidence: [
                .transaction(A.transaction("1", bought: 0, expires: 30)),
                .renewal(A.renewal("1", autoRenew: false, signed: 40, intent: 1)),
            ],
            expectations: [
                .init(day: 35, status: .expired, reason: .some(.voluntary), view: .asItHappened),
                .init(day: 35, status: .expired, reason: .some(nil), view: .asKnownThen),
                .init(day: 10, status: .active, expires: 30, view: .asItHappened),
            ]),
        Scenario(
            name:
                "a parent rescinds consent: what was bought before grants nothing from then on; a later purchase does",
            evidence: [
                .transaction(A.transaction("1", bought: 0, expires: 30)),
                .transaction(A.transaction("9", product: "lifetime", bought: 5, type: "Non-Consumable", group: nil)),
                .consentRescission(
                    ConsentRescission(originalTransactionID: "1", appTransactionID: "704", rescindedAt: A.day(10))),
                .consentRescission(
                    ConsentRescission(originalTransactionID: "9", appTransactionID: "704", rescindedAt: A.day(10))),
                .transaction(A.transaction("12", product: "basic", bought: 12, expires: 42, group: "G3")),
                .consentRescission(
                    ConsentRescission(originalTransactionID: "12", appTransactionID: "704", rescindedAt: A.day(11))),
            ],
            expectations: [
                .init(day: 9, status: .active, entitlements: ["pro": nil]),
                .init(
                    day: 11, status: .active, entitlements: [:],
                    check: { state in
                        state.subscriptions.first { $0.originalTransactionID == "1" }?.consentRescindedAt == A.day(10)
                            && state.purchases.allSatisfy { !$0.grantsAccess }
                    }),
                .init(
                    day: 13, status: .active, entitlements: ["basic": 42],
                    check: { state in
                        state.subscriptions.first { $0.originalTransactionID == "12" }?.consentRescindedAt == nil
                    }),
            ]),
        Scenario(
            name: "a switch to a subscription bundle: the new subscription names the old one, which is replaced",
            evidence: [
                .transaction(A.transaction("1", bought: 0, expires: 30)),
                .renewal(A.renewal("1", autoRenew: false, signed: 10)),
                .transaction(
                    A.transaction(
                        "5", product: "g2_monthly", bought: 10, expires: 40, group: "G2",
                        extra: ["previousOriginalTransactionId": "1"])),
            ],
            expectations: [
                .init(
                    day: 15, status: nil,
                    check: { state in
                        let old = state.subscriptions.first { $0.originalTransactionID == "1" }
                        let new = state.subscriptions.first { $0.originalTransactionID == "5" }
                        return old?.replacedByOriginalTransactionID == "5" && new?.previousOriginalTransactionID == "1"
                            && old?.willAutoRenew == false
                            && (old?.explanation.contains { $0.hasPrefix("[switch-replaces-previous] replaced by") }
                                ?? false)
                            && state.entitlements.contains { $0.identifier == "extras" }
                    })
            ]),
        Scenario(
            name: "family shared, then family sharing revoked",
            evidence: [
                .transaction(A.transaction("1", bought: 0, expires: 30, ownership: "FAMILY_SHARED")),
                .transaction(
                    A.transaction(
                        "1", bought: 0, expires: 30, signed: 15, revoked: 15,
                        revocationType: "FAMILY_REVOKE", ownership: "FAMILY_SHARED")),
            ],
            expectations: [
                .init(day: 10, status: .active, check: { $0.subscriptions[0].ownership == .familyShared }),
                .init(
                    day: 16, status: .revoked, entitlements: [:],
                    check: { $0.subscriptions[0].revocationType == .familyRevoke }),
            ]),
        Scenario(
            name: "a refund's evidence arriving before the purchase still revokes",
            evidence: [
                .transaction(A.transaction("1", bought: 0, expires: 30, signed: 5, revoked: 5, revocationReason: 1)),
                .transaction(A.transaction("1", bought: 0, expires: 30)),
            ],
            expectations: [.init(day: 6, status: .revoked)]),
    ]

    static let planChanges: [Scenario] = [
        Scenario(
            name: "upgrade takes effect immediately",
            evidence: [
                .transaction(A.transaction("1", product: "basic", bought: 0, expires: 30)),
                .transaction(
                    A.transaction(
                        "1", product: "basic", bought: 0, expires: 30, signed: 10, revoked: 10, upgraded: true)),
                .transaction(
                    A.transaction("2", original: "1", product: "premium", bought: 10, expires: 40, reason: "PURCHASE")),
            ],
            expectations: [
                .init(day: 5, status: .active, product: "basic", entitlements: ["basic": 30]),
                .init(
                    day: 15, status: .active, product: "premium", expires: 40, entitlements: ["pro": 40, "premium": 40]),
            ]),
        Scenario(
            name: "downgrade takes effect at the next renewal",
            evidence: [
                .transaction(A.transaction("1", product: "premium", bought: 0, expires: 30)),
                .renewal(A.renewal("1", product: "premium", renewsTo: "basic", signed: 10)),
                .transaction(A.transaction("2", original: "1", product: "basic", bought: 30, expires: 60)),
            ],
            expectations: [
                .init(
                    day: 15, status: .active, product: "premium", renewsTo: "basic",
                    check: { state in
                        state.subscriptions[0].explanation.contains { $0.contains("downgrade-at-renewal") }
                    }),
                .init(day: 31, status: .active, product: "basic", expires: 60),
            ]),
        Scenario(
            name: "crossgrade monthly → annual at renewal",
            evidence: [
                .transaction(A.transaction("1", bought: 0, expires: 30)),
                .renewal(A.renewal("1", renewsTo: "annual", signed: 5)),
                .transaction(A.transaction("2", original: "1", product: "annual", bought: 30, expires: 395)),
            ],
            expectations: [
                .init(day: 10, status: .active, product: "monthly", renewsTo: "annual"),
                .init(day: 40, status: .active, product: "annual", expires: 395),
            ]),
        Scenario(
            name: "resubscribe after a lapse",
            evidence: [
                .transaction(A.transaction("1", bought: 0, expires: 30)),
                .renewal(A.renewal("1", autoRenew: false, signed: 30, intent: 1)),
                .transaction(A.transaction("2", original: "1", bought: 60, expires: 90, reason: "PURCHASE")),
                .renewal(A.renewal("1", signed: 60)),
            ],
            expectations: [
                .init(day: 45, status: .expired, reason: .voluntary),
                .init(day: 61, status: .active, expires: 90, willAutoRenew: true),
            ]),
        Scenario(
            name: "price increase declined → expires",
            evidence: [
                .transaction(A.transaction("1", bought: 0, expires: 30)),
                .renewal(A.renewal("1", signed: 20, priceIncrease: 0)),
                .renewal(A.renewal("1", autoRenew: false, signed: 30, intent: 3, priceIncrease: 0)),
            ],
            expectations: [
                .init(day: 25, status: .active, check: { $0.subscriptions[0].priceIncreaseStatus == .notResponded }),
                .init(day: 31, status: .expired, reason: .priceIncreaseDeclined),
            ]),
        Scenario(
            name: "price increase accepted → renews",
            evidence: [
                .transaction(A.transaction("1", bought: 0, expires: 30)),
                .renewal(A.renewal("1", signed: 20, priceIncrease: 1)),
                .transaction(A.transaction("2", original: "1", bought: 30, expires: 60, price: 12_990)),
            ],
            expectations: [
                .init(
                    day: 31, status: .active, expires: 60,
                    check: { state in
                        state.subscriptions[0].priceIncreaseStatus == .consented
                            && state.subscriptions[0].price == 12_990
                    })
            ]),
        Scenario(
            name: "renewal date extended",
            evidence: [
                .transaction(A.transaction("1", bought: 0, expires: 30)),
                .transaction(A.transaction("1", bought: 0, expires: 40, signed: 10)),
            ],
            expectations: [.init(day: 35, status: .active, expires: 40)]),
        Scenario(
            name: "two subscription groups at once",
            evidence: [
                .transaction(A.transaction("1", bought: 0, expires: 30)),
                .transaction(A.transaction("10", product: "g2_monthly", bought: 5, expires: 35, group: "G2")),
            ],
            expectations: [
                .init(
                    day: 10, status: .active, entitlements: ["pro": 30, "extras": 35],
                    check: { $0.subscriptions.count == 2 }),
                .init(day: 32, original: "10", status: .active, entitlements: ["extras": 35]),
            ]),
    ]

    static let offers: [Scenario] = [
        Scenario(
            name: "offer code redemption",
            evidence: [
                .transaction(
                    A.transaction(
                        "1", bought: 0, expires: 30, offerType: 3, discount: "PAY_AS_YOU_GO", offerID: "SPRING24"))
            ],
            expectations: [.init(day: 5, status: .active, offer: .offerCode, offerID: "SPRING24")]),
        Scenario(
            name: "promotional offer",
            evidence: [.transaction(A.transaction("1", bought: 0, expires: 30, offerType: 2, offerID: "promo_50"))],
            expectations: [
                .init(
                    day: 5, status: .active, offer: .promotional, offerID: "promo_50",
                    check: { state in
                        state.introEligibility["annual"] == .eligible
                    })
            ]),
        Scenario(
            name: "win-back offer",
            evidence: [.transaction(A.transaction("1", bought: 0, expires: 30, offerType: 4, offerID: "winback1"))],
            expectations: [.init(day: 5, status: .active, offer: .winBack, offerID: "winback1")]),
        Scenario(
            name: "introductory pay-as-you-go makes the whole group ineligible",
            evidence: [
                .transaction(A.transaction("1", bought: 0, expires: 30, offerType: 1, discount: "PAY_AS_YOU_GO"))
            ],
            expectations: [
                .init(
                    day: 5, status: .active, offer: .introPayAsYouGo,
                    check: { state in
                        state.introEligibility["annual"] == .ineligible
                            && state.introEligibility["premium"] == .ineligible
                            && state.introEligibility["g2_monthly"] == .eligible
                    })
            ]),
        Scenario(
            name: "introductory pay-up-front",
            evidence: [
                .transaction(A.transaction("1", bought: 0, expires: 90, offerType: 1, discount: "PAY_UP_FRONT"))
            ],
            expectations: [.init(day: 5, status: .active, offer: .introPayUpFront)]),
        Scenario(
            name: "intro eligibility: unknown for a product whose group is not configured",
            evidence: [
                .transaction(A.transaction("1", bought: 0, expires: 30, offerType: 1, discount: "FREE_TRIAL")),
                .transaction(A.transaction("50", product: "mystery", bought: 1, expires: 31, group: "G9")),
            ],
            expectations: [
                .init(
                    day: 5,
                    check: { state in
                        state.introEligibility["mystery"] == .unknown
                            && state.introEligibility["monthly"] == .ineligible
                            && state.introEligibility["g2_monthly"] == .eligible
                    })
            ]),
        Scenario(
            name: "nobody has used an intro offer: every configured product eligible",
            evidence: [.transaction(A.transaction("1", bought: 0, expires: 30))],
            expectations: [
                .init(
                    day: 5,
                    check: { state in
                        ["monthly", "annual", "premium", "basic", "g2_monthly"].allSatisfy {
                            state.introEligibility[$0] == .eligible
                        }
                    })
            ]),
    ]

    static let sources: [Scenario] = [
        Scenario(
            name: "legacy receipt, then StoreKit 2 JWS for the same subscription",
            evidence: [
                .verifyReceipt(
                    A.verifyReceipt(
                        requested: 5, items: [A.receiptItem("1", original: "1", bought: 0, expires: 7, trial: true)],
                        pending: [A.pendingRenewal("1")])),
                .transaction(A.transaction("2", original: "1", bought: 7, expires: 37, signed: 7)),
                .transaction(
                    A.transaction("1", bought: 0, expires: 7, signed: 8, offerType: 1, discount: "FREE_TRIAL")),
            ],
            expectations: [
                .init(day: 6, status: .active, expires: 7, willAutoRenew: true, offer: .freeTrial),
                .init(
                    day: 10, status: .active, expires: 37,
                    check: { state in
                        state.subscriptions.count == 1 && state.purchases.isEmpty
                            && state.introEligibility["monthly"] == .ineligible
                    }),
            ]),
        Scenario(
            name: "V1: INITIAL_BUY then CANCEL (refund) by Apple support",
            evidence: [
                .notificationV1(
                    A.notificationV1("INITIAL_BUY", items: [A.receiptItem("1", original: "1", bought: 0, expires: 30)])),
                .notificationV1(
                    A.notificationV1(
                        "CANCEL", items: [A.receiptItem("1", original: "1", bought: 0, expires: 30, cancelled: 10)])),
            ],
            expectations: [.init(day: 5, status: .active), .init(day: 11, status: .revoked, expires: 10)]),
        Scenario(
            name: "V1: DID_RENEW moves the expiry",
            evidence: [
                .notificationV1(
                    A.notificationV1("INITIAL_BUY", items: [A.receiptItem("1", original: "1", bought: 0, expires: 30)])),
                .notificationV1(
                    A.notificationV1(
                        "DID_RENEW",
                        items: [
                            A.receiptItem("1", original: "1", bought: 0, expires: 30),
                            A.receiptItem("2", original: "1", bought: 30, expires: 60),
                        ])),
            ],
            expectations: [.init(day: 31, status: .active, expires: 60)]),
        Scenario(
            name: "verifyReceipt: an upgrade shown by is_upgraded and cancellation_date",
            evidence: [
                .verifyReceipt(
                    A.verifyReceipt(
                        requested: 12,
                        items: [
                            A.receiptItem(
                                "1", original: "1", product: "basic", bought: 0, expires: 30, cancelled: 10,
                                upgraded: true),
                            A.receiptItem("2", original: "1", product: "premium", bought: 10, expires: 40),
                        ]))
            ],
            expectations: [
                .init(
                    day: 15, status: .active, product: "premium", expires: 40,
                    check: { !$0.subscriptions[0].isUpgraded })
            ]),
        Scenario(
            name: "verifyReceipt: grace period from pending_renewal_info",
            evidence: [
                .verifyReceipt(
                    A.verifyReceipt(
                        requested: 31, items: [A.receiptItem("1", original: "1", bought: 0, expires: 30)],
                        pending: [A.pendingRenewal("1", billingRetry: true, graceUntil: 46)]))
            ],
            expectations: [.init(day: 32, status: .inGracePeriod, graceUntil: 46)]),
        Scenario(
            name: "verifyReceipt: expiration intent from pending_renewal_info",
            evidence: [
                .verifyReceipt(
                    A.verifyReceipt(
                        requested: 40, items: [A.receiptItem("1", original: "1", bought: 0, expires: 30)],
                        pending: [A.pendingRenewal("1", autoRenew: false, intent: 1)]))
            ],
            expectations: [.init(day: 41, status: .expired, reason: .voluntary, willAutoRenew: false)]),
    ]

    static let purchases: [Scenario] = [
        Scenario(
            name: "non-consumable grants forever",
            evidence: [
                .transaction(A.transaction("100", product: "lifetime", bought: 0, type: "Non-Consumable", group: nil))
            ],
            expectations: [
                .init(
                    day: 500, noSubscription: true,
                    check: { state in
                        state.entitlements.first?.identifier == "pro" && state.entitlements.first?.expiresAt == nil
                    })
            ]),
        Scenario(
            name: "non-consumable refunded",
            evidence: [
                .transaction(A.transaction("100", product: "lifetime", bought: 0, type: "Non-Consumable", group: nil)),
                .transaction(
                    A.transaction(
                        "100", product: "lifetime", bought: 0, signed: 3, type: "Non-Consumable", group: nil,
                        revoked: 3, revocationReason: 1)),
            ],
            expectations: [
                .init(day: 2, noSubscription: true, check: { $0.entitlements.count == 1 }),
                .init(day: 5, entitlements: [:], noSubscription: true, check: { !$0.purchases[0].grantsAccess }),
            ]),
        Scenario(
            name: "consumables are recorded, not entitlements",
            evidence: [.transaction(A.transaction("200", product: "coins", bought: 0, type: "Consumable", group: nil))],
            expectations: [
                .init(
                    day: 1, entitlements: [:], noSubscription: true,
                    check: { state in
                        state.purchases.count == 1 && state.purchases[0].kind == .consumable
                    })
            ]),
        Scenario(
            name: "non-renewing subscription lasts its configured duration",
            evidence: [
                .transaction(
                    A.transaction(
                        "300", product: "season_pass", bought: 0, type: "Non-Renewing Subscription", group: nil))
            ],
            expectations: [
                .init(day: 30, entitlements: ["pass": 90], noSubscription: true),
                .init(day: 91, entitlements: [:], noSubscription: true),
            ]),
        Scenario(
            name: "non-renewing subscription without a configured duration grants nothing",
            evidence: [
                .transaction(
                    A.transaction(
                        "301", product: "other_pass", bought: 0, type: "Non-Renewing Subscription", group: nil))
            ],
            expectations: [.init(day: 1, noSubscription: true, check: { !$0.purchases[0].grantsAccess })]),
        Scenario(
            name: "entitlements: the furthest grant wins (lifetime beats monthly)",
            evidence: [
                .transaction(A.transaction("1", bought: 0, expires: 30)),
                .transaction(A.transaction("100", product: "lifetime", bought: 1, type: "Non-Consumable", group: nil)),
            ],
            expectations: [
                .init(
                    day: 10, status: .active,
                    check: { state in
                        state.entitlements.count == 1 && state.entitlements[0].productID == "lifetime"
                            && state.entitlements[0].expiresAt == nil
                    })
            ]),
    ]

    static let ordering: [Scenario] = [
        Scenario(
            name: "duplicate evidence is applied once",
            evidence: [
                .transaction(A.transaction("1", bought: 0, expires: 30)),
                .transaction(A.transaction("1", bought: 0, expires: 30)),
                .transaction(A.transaction("2", original: "1", bought: 30, expires: 60)),
                .transaction(A.transaction("2", original: "1", bought: 30, expires: 60)),
            ],
            expectations: [
                .init(
                    day: 31, status: .active, expires: 60,
                    check: { state in
                        state.subscriptions.count == 1
                            && state.subscriptions[0].explanation.filter {
                                $0.contains("the latest of its periods is transaction 2")
                            }.count == 1
                            && state.subscriptions[0].explanation.filter { $0.contains("began") }.count == 1
                    })
            ]),
        Scenario(
            name: "renewals arriving newest first converge",
            evidence: [
                .transaction(A.transaction("3", original: "1", bought: 60, expires: 90)),
                .transaction(A.transaction("2", original: "1", bought: 30, expires: 60)),
                .transaction(A.transaction("1", bought: 0, expires: 30)),
            ],
            expectations: [
                .init(day: 61, status: .active, expires: 90, check: { $0.subscriptions[0].latestTransactionID == "3" })
            ]),
    ]

    /// A commitment plan's evidence: monthly periods 1, 2 and 12 of a commitment that began on day 0, and renewal
    /// info from day 35 saying the customer cancelled the next commitment (then, on day 335, auto-renew off).
    static func commitmentPlan() -> [Evidence] {
        func period(_ number: Int) -> Evidence {
            .transaction(
                A.transaction(
                    "\(number)", original: "1", product: "annual", bought: Double(number - 1) * 30,
                    expires: Double(number) * 30, price: 7_490,
                    extra: [
                        "billingPlanType": "MONTHLY",
                        "commitmentInfo": [
                            "billingPeriodNumber": number, "totalBillingPeriods": 12,
                            "commitmentExpiresDate": A.ms(360), "commitmentPrice": 89_880,
                        ],
                    ]))
        }
        func renewal(signed: Double, autoRenew: Bool) -> Evidence {
            .renewal(
                A.renewal(
                    "1", product: "annual", autoRenew: autoRenew, signed: signed,
                    extra: [
                        "renewalBillingPlanType": "MONTHLY",
                        "commitmentInfo": ["commitmentAutoRenewStatus": 0, "commitmentAutoRenewProductId": "annual"],
                    ]))
        }
        return [
            period(1), period(2), period(12), renewal(signed: 35, autoRenew: true),
            renewal(signed: 335, autoRenew: false),
        ]
    }
}
