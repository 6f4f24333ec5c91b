extension SimulatedApp {
    /// The demo catalog: a group with premium (level 1) and basic (level 2) monthly plans, an annual plan at the
    /// premium level (also sold as a monthly subscription with a 12-month commitment), a consumable and a
    /// non-consumable; intro offers, a promotional offer, an offer code, a win-back offer, and a one-time offer code
    /// on the consumable.
    public static func demo(
        bundleID: String = "com.example.storekeeper.demo", sharedSecret: String = "demo-shared-secret",
        gracePeriodDays: Int = 16, notificationURL: String? = nil
    ) -> SimulatedApp {
        let trial = SimulatedProduct.Offer(discountType: "FREE_TRIAL", period: .week)
        return SimulatedApp(
            bundleID: bundleID, appAppleID: 1_234_567_890, sharedSecret: sharedSecret, notificationURL: notificationURL,
            gracePeriodDays: gracePeriodDays,
            products: [
                SimulatedProduct(
                    productID: "premium.monthly", subscriptionGroupID: "pro", level: 1, period: .month,
                    prices: ["USA": 9_990], introductoryOffer: trial,
                    promotionalOffers: [
                        "winback50": .init(discountType: "PAY_AS_YOU_GO", period: .month, price: 4_990)
                    ],
                    offerCodes: ["SPRING": .init(discountType: "FREE_TRIAL", period: .month)],
                    winBackOffers: ["comeback": .init(discountType: "PAY_AS_YOU_GO", period: .month, price: 2_990)]),
                SimulatedProduct(
                    productID: "basic.monthly", subscriptionGroupID: "pro", level: 2, period: .month,
                    prices: ["USA": 4_990],
                    introductoryOffer: trial),
                SimulatedProduct(
                    productID: "premium.annual", subscriptionGroupID: "pro", level: 1, period: .year,
                    prices: ["USA": 79_990], monthlyCommitmentPrices: ["USA": 7_490]),
                SimulatedProduct(
                    productID: "coins.100", kind: .consumable, prices: ["USA": 990],
                    offerCodes: ["COINSHALF": .init(discountType: "ONE_TIME", period: .month, price: 490)]),
                SimulatedProduct(productID: "lifetime", kind: .nonConsumable, prices: ["USA": 199_990]),
            ])
    }

}
