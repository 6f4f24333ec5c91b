import Foundation
import StoreKeeperKit
import Testing

/// A paywall's price text offers the introductory price only to a customer the server found eligible.
@Suite struct StoreProductTests {
    func product(_ intro: StoreProduct.IntroductoryOffer?, eligible: Bool?) -> StoreProduct {
        StoreProduct(
            id: "premium.monthly", displayPrice: "$9.99", price: Decimal(string: "9.99")!, currencyCode: "USD",
            subscriptionPeriod: "P1M", introductoryOffer: intro, isEligibleForIntroOffer: eligible)
    }

    @Test("a free trial is offered only when eligible; unknown eligibility promises nothing")
    func freeTrial() {
        let trial = StoreProduct.IntroductoryOffer(
            discountType: "FREE_TRIAL", displayPrice: "$0.00", period: "P1W", periods: 1)
        #expect(product(trial, eligible: true).priceText == "1 week free, then $9.99 / month")
        #expect(product(trial, eligible: false).priceText == "$9.99 / month")
        #expect(product(trial, eligible: nil).priceText == "$9.99 / month")
    }

    @Test("pay as you go and pay up front read as the customer pays")
    func paidIntro() {
        let payAsYouGo = StoreProduct.IntroductoryOffer(
            discountType: "PAY_AS_YOU_GO", displayPrice: "$0.99", period: "P1M", periods: 3)
        #expect(product(payAsYouGo, eligible: true).priceText == "$0.99 / month for 3 months, then $9.99 / month")
        let upFront = StoreProduct.IntroductoryOffer(
            discountType: "PAY_UP_FRONT", displayPrice: "$4.99", period: "P3M", periods: 1)
        #expect(product(upFront, eligible: true).priceText == "$4.99 for 3 months, then $9.99 / month")
    }
}
