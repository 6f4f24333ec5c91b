import AppStoreModels

extension JWSTransactionDecodedPayload: CanonicalPayload {
    /// Reads a transaction whose fields are all in canonical form (see ``CanonicalPayload``); unknown fields
    /// are ignored, as `Codable` ignores them.
    init?(canonical members: [(String, JSONValue)]) {
        var reader = CanonicalFieldReader()
        var transactionID: String?, originalID: String?, productID: String?
        var payload = JWSTransactionDecodedPayload(transactionId: "", originalTransactionId: "", productId: "")
        for (key, value) in members {
            switch key {
            case "transactionId": transactionID = reader.string(value)
            case "originalTransactionId": originalID = reader.string(value)
            case "productId": productID = reader.string(value)
            case "bundleId": payload.bundleId = reader.string(value)
            case "webOrderLineItemId": payload.webOrderLineItemId = reader.string(value)
            case "subscriptionGroupIdentifier": payload.subscriptionGroupIdentifier = reader.string(value)
            case "purchaseDate": payload.purchaseDate = reader.date(value)
            case "originalPurchaseDate": payload.originalPurchaseDate = reader.date(value)
            case "expiresDate": payload.expiresDate = reader.date(value)
            case "quantity": payload.quantity = reader.int(value)
            case "type": payload.type = reader.open(value, as: ProductType.self)
            case "appAccountToken": payload.appAccountToken = reader.string(value)
            case "inAppOwnershipType": payload.inAppOwnershipType = reader.open(value, as: OwnershipType.self)
            case "signedDate": payload.signedDate = reader.date(value)
            case "revocationReason": payload.revocationReason = reader.open(value, as: RevocationReason.self)
            case "revocationDate": payload.revocationDate = reader.date(value)
            case "revocationType": payload.revocationType = reader.open(value, as: RevocationType.self)
            case "revocationPercentage": payload.revocationPercentage = reader.int(value)
            case "isUpgraded": payload.isUpgraded = reader.bool(value)
            case "offerType": payload.offerType = reader.open(value, as: OfferType.self)
            case "offerIdentifier": payload.offerIdentifier = reader.string(value)
            case "offerPeriod": payload.offerPeriod = reader.string(value)
            case "offerDiscountType": payload.offerDiscountType = reader.open(value, as: OfferDiscountType.self)
            case "environment": payload.environment = reader.open(value, as: AppStoreEnvironment.self)
            case "storefront": payload.storefront = reader.string(value)
            case "storefrontId": payload.storefrontId = reader.string(value)
            case "transactionReason": payload.transactionReason = reader.open(value, as: TransactionReason.self)
            case "currency": payload.currency = reader.string(value)
            case "price": payload.price = reader.integer(value)
            case "appTransactionId": payload.appTransactionId = reader.string(value)
            case "billingPlanType": payload.billingPlanType = reader.open(value, as: BillingPlanType.self)
            case "commitmentInfo": reader.nested(value)
            case "previousOriginalTransactionId": payload.previousOriginalTransactionId = reader.string(value)
            default: continue
            }
        }
        // The three required fields must be strings (a missing one or `null` is `JSONDecoder`'s error to name).
        guard reader.isCanonical, let transactionID, let originalID, let productID else { return nil }
        payload.transactionId = transactionID
        payload.originalTransactionId = originalID
        payload.productId = productID
        self = payload
    }
}
