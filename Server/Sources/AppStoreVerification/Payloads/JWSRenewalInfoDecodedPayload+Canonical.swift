import AppStoreModels

extension JWSRenewalInfoDecodedPayload: CanonicalPayload {
    /// Reads renewal information whose fields are all in canonical form (see ``CanonicalPayload``); unknown
    /// fields are ignored, as `Codable` ignores them.
    init?(canonical members: [(String, JSONValue)]) {
        var reader = CanonicalFieldReader()
        var originalID: String?
        var payload = JWSRenewalInfoDecodedPayload(originalTransactionId: "")
        for (key, value) in members {
            switch key {
            case "originalTransactionId": originalID = reader.string(value)
            case "productId": payload.productId = reader.string(value)
            case "autoRenewProductId": payload.autoRenewProductId = reader.string(value)
            case "autoRenewStatus": payload.autoRenewStatus = reader.open(value, as: AutoRenewStatus.self)
            case "expirationIntent": payload.expirationIntent = reader.open(value, as: ExpirationIntent.self)
            case "isInBillingRetryPeriod": payload.isInBillingRetryPeriod = reader.bool(value)
            case "gracePeriodExpiresDate": payload.gracePeriodExpiresDate = reader.date(value)
            case "priceIncreaseStatus": payload.priceIncreaseStatus = reader.open(value, as: PriceIncreaseStatus.self)
            case "offerType": payload.offerType = reader.open(value, as: OfferType.self)
            case "offerIdentifier": payload.offerIdentifier = reader.string(value)
            case "offerPeriod": payload.offerPeriod = reader.string(value)
            case "offerDiscountType": payload.offerDiscountType = reader.open(value, as: OfferDiscountType.self)
            case "signedDate": payload.signedDate = reader.date(value)
            case "environment": payload.environment = reader.open(value, as: AppStoreEnvironment.self)
            case "recentSubscriptionStartDate": payload.recentSubscriptionStartDate = reader.date(value)
            case "renewalDate": payload.renewalDate = reader.date(value)
            case "currency": payload.currency = reader.string(value)
            case "renewalPrice": payload.renewalPrice = reader.integer(value)
            case "eligibleWinBackOfferIds": payload.eligibleWinBackOfferIds = reader.strings(value)
            case "appAccountToken": payload.appAccountToken = reader.string(value)
            case "appTransactionId": payload.appTransactionId = reader.string(value)
            case "renewalBillingPlanType": payload.renewalBillingPlanType = reader.open(value, as: BillingPlanType.self)
            case "commitmentInfo": reader.nested(value)
            default: continue
            }
        }
        guard reader.isCanonical, let originalID else { return nil }
        payload.originalTransactionId = originalID
        self = payload
    }
}
