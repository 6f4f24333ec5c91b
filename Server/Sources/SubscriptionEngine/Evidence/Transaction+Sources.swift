import AppStoreModels
import Foundation

extension Transaction {
    /// Normalises a verifyReceipt / receipt item; `nil` when it lacks a transaction or product id.
    init?(_ item: InAppTransactionInfo, source: EvidenceSource, observedAt: Date?) {
        guard let transactionID = item.transactionId, let productID = item.productId else { return nil }
        self.init(
            transactionID: transactionID, originalTransactionID: item.originalTransactionId ?? transactionID,
            productID: productID, source: source)
        subscriptionGroupID = item.subscriptionGroupIdentifier
        purchaseDate = item.purchaseDate
        originalPurchaseDate = item.originalPurchaseDate
        expiresAt = item.expiresDate
        revokedAt = item.cancellationDate
        revocationReason = item.cancellationDate == nil ? nil : item.cancellationReason
        isUpgraded = item.isUpgraded
        ownership = item.inAppOwnershipType
        webOrderLineItemID = item.webOrderLineItemId
        appAccountToken = item.appAccountToken
        quantity = item.quantity
        self.observedAt = observedAt
        if item.isTrialPeriod == true {
            offer = Offer(kind: .freeTrial)
        } else if item.isInIntroOfferPeriod == true {
            offer = Offer(kind: .introductory)
        } else if let code = item.offerCodeRefName {
            offer = Offer(kind: .offerCode, identifier: code)
        } else if let promotional = item.promotionalOfferId {
            offer = Offer(kind: .promotional, identifier: promotional)
        }
    }

    /// Normalises a verified StoreKit 2 transaction.
    init(_ payload: JWSTransactionDecodedPayload, source: EvidenceSource) {
        self.init(
            transactionID: payload.transactionId, originalTransactionID: payload.originalTransactionId,
            productID: payload.productId, source: source)
        kind = payload.type.flatMap(ProductKind.init)
        subscriptionGroupID = payload.subscriptionGroupIdentifier
        purchaseDate = payload.purchaseDate
        originalPurchaseDate = payload.originalPurchaseDate
        expiresAt = payload.expiresDate
        revokedAt = payload.revocationDate
        revocationReason = payload.revocationReason
        revocationType = payload.revocationType
        revocationPercentage = payload.revocationPercentage
        isUpgraded = payload.isUpgraded
        ownership = payload.inAppOwnershipType
        environment = payload.environment
        storefront = payload.storefront
        price = payload.price
        currency = payload.currency
        webOrderLineItemID = payload.webOrderLineItemId
        appAccountToken = payload.appAccountToken
        quantity = payload.quantity
        appTransactionID = payload.appTransactionId
        previousOriginalTransactionID = payload.previousOriginalTransactionId
        billingPlan = payload.billingPlanType
        commitmentPeriod = payload.commitmentInfo?.billingPeriodNumber
        commitmentPeriods = payload.commitmentInfo?.totalBillingPeriods
        commitmentEndsAt = payload.commitmentInfo?.commitmentExpiresDate
        commitmentPrice = payload.commitmentInfo?.commitmentPrice
        observedAt = payload.signedDate
        offer = Offer(type: payload.offerType, discount: payload.offerDiscountType, identifier: payload.offerIdentifier)
    }
}

extension ProductKind {
    init?(_ type: ProductType) {
        switch type {
        case .autoRenewable: self = .autoRenewable
        case .nonConsumable: self = .nonConsumable
        case .consumable: self = .consumable
        case .nonRenewing: self = .nonRenewing
        case .unknown: return nil
        }
    }
}

extension Offer {
    /// Maps StoreKit 2's offer fields; `nil` when no offer applies.
    init?(type: OfferType?, discount: OfferDiscountType?, identifier: String?) {
        guard let type else { return nil }
        switch type {
        case .introductory:
            switch discount {
            case .freeTrial: self.init(kind: .freeTrial, identifier: identifier)
            case .payAsYouGo: self.init(kind: .introPayAsYouGo, identifier: identifier)
            case .payUpFront: self.init(kind: .introPayUpFront, identifier: identifier)
            default: self.init(kind: .introductory, identifier: identifier)
            }
        case .promotional: self.init(kind: .promotional, identifier: identifier)
        case .offerCode: self.init(kind: .offerCode, identifier: identifier)
        case .winBack: self.init(kind: .winBack, identifier: identifier)
        case .unknown: return nil
        }
    }
}

extension RenewalState {
    /// Normalises a `pending_renewal_info` item; `nil` without an original transaction id.
    init?(_ item: PendingRenewalInfo, source: EvidenceSource, observedAt: Date?) {
        guard let original = item.originalTransactionId else { return nil }
        self.init(originalTransactionID: original, source: source)
        productID = item.productId
        autoRenewProductID = item.autoRenewProductId
        willAutoRenew = item.autoRenewStatus.map { $0 == .on }
        expirationIntent = item.expirationIntent
        isInBillingRetry = item.isInBillingRetryPeriod
        gracePeriodExpiresAt = item.gracePeriodExpiresDate
        priceIncreaseStatus = item.priceConsentStatus ?? item.priceIncreaseStatus
        if let code = item.offerCodeRefName {
            offer = Offer(kind: .offerCode, identifier: code)
        } else if let promotional = item.promotionalOfferId {
            offer = Offer(kind: .promotional, identifier: promotional)
        }
        self.observedAt = observedAt
    }

    /// Normalises verified StoreKit 2 renewal info.
    init(_ payload: JWSRenewalInfoDecodedPayload, source: EvidenceSource) {
        self.init(originalTransactionID: payload.originalTransactionId, source: source)
        productID = payload.productId
        autoRenewProductID = payload.autoRenewProductId
        willAutoRenew = payload.autoRenewStatus.map { $0 == .on }
        expirationIntent = payload.expirationIntent
        isInBillingRetry = payload.isInBillingRetryPeriod
        gracePeriodExpiresAt = payload.gracePeriodExpiresDate
        priceIncreaseStatus = payload.priceIncreaseStatus
        offer = Offer(type: payload.offerType, discount: payload.offerDiscountType, identifier: payload.offerIdentifier)
        renewalDate = payload.renewalDate
        environment = payload.environment
        commitmentWillAutoRenew = payload.commitmentInfo?.commitmentAutoRenewStatus.map { $0 == .on }
        commitmentAutoRenewProductID = payload.commitmentInfo?.commitmentAutoRenewProductId
        commitmentRenewalDate = payload.commitmentInfo?.commitmentRenewalDate
        observedAt = payload.signedDate
    }
}
