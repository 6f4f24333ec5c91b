import AppStoreModels
import Foundation
import SubscriptionEngine
import Testing

/// The lifecycle table: every rule, checked at several instants of each lifecycle.
@Suite struct LifecycleScenarioTests {
    @Test("the table has at least 40 lifecycles")
    func tableSize() {
        #expect(Scenarios.all.count >= 40)
        #expect(Set(Scenarios.all.map(\.name)).count == Scenarios.all.count)
    }

    @Test("lifecycle", arguments: Scenarios.all)
    func lifecycle(_ scenario: Scenario) {
        let engine = SubscriptionEngine(configuration: scenario.configuration)
        let evidence = scenario.evidenceSet()
        for expectation in scenario.expectations {
            Self.check(expectation.state(engine, evidence), expectation, scenario.name)
        }
    }

    static func check(_ state: CustomerState, _ expected: Expectation, _ name: String) {
        let at = "\(name) @ day \(expected.day)\(expected.view == .asItHappened ? " (as it happened)" : "")"
        if expected.noSubscription {
            #expect(state.subscriptions.isEmpty, "\(at): expected no subscription")
        }
        if let status = expected.status {
            guard let subscription = state.subscriptions.first(where: { $0.originalTransactionID == expected.original })
            else {
                Issue.record("\(at): no subscription \(expected.original ?? "-")")
                return
            }
            #expect(subscription.status == status, "\(at): status; explanation: \(subscription.explanation)")
            if let product = expected.product { #expect(subscription.productID == product, "\(at): product") }
            if let expires = expected.expires {
                #expect(subscription.expiresAt == Apple.day(expires), "\(at): expiresAt")
            }
            if let grace = expected.graceUntil {
                #expect(subscription.gracePeriodExpiresAt == Apple.day(grace), "\(at): grace")
            }
            if case .some(let reason) = expected.reason {
                #expect(subscription.expirationReason == reason, "\(at): reason")
            }
            if let renew = expected.willAutoRenew {
                #expect(subscription.willAutoRenew == renew, "\(at): willAutoRenew")
            }
            if let renewsTo = expected.renewsTo {
                #expect(subscription.autoRenewProductID == renewsTo, "\(at): renewsTo")
            }
            if let offer = expected.offer { #expect(subscription.offer?.kind == offer, "\(at): offer") }
            if let id = expected.offerID { #expect(subscription.offer?.identifier == id, "\(at): offer id") }
            #expect(!subscription.explanation.isEmpty, "\(at): explanation")
        }
        if let entitlements = expected.entitlements {
            let actual = Dictionary(uniqueKeysWithValues: state.entitlements.map { ($0.identifier, $0.expiresAt) })
            #expect(Set(actual.keys) == Set(entitlements.keys), "\(at): entitlements \(actual)")
            for (identifier, day) in entitlements {
                #expect(actual[identifier] == day.map(Apple.day), "\(at): entitlement \(identifier)")
            }
        }
        if let check = expected.check {
            #expect(check(state), "\(at): check; \(state.subscriptions.map(\.explanation))")
        }
    }
}
