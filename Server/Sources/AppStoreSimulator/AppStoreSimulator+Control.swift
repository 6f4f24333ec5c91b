import Foundation

extension AppStoreSimulator {
    // MARK: - Purchases

    /// Buys a product, as a customer would in the app: a new subscription (SUBSCRIBED / INITIAL_BUY, or
    /// OFFER_REDEEMED with an offer code), a resubscription after a lapse (RESUBSCRIBE), or a one-time
    /// purchase (ONE_TIME_CHARGE).
    /// - Parameters:
    ///   - bundleID: The app.
    ///   - productID: The product.
    ///   - customerID: The App Store account.
    ///   - options: Offer, app account token, family sharing, storefront.
    /// - Returns: The new transaction.
    /// - Throws: ``SimulatorError`` for an unknown app or product, or a purchase of an active subscription
    ///   (use ``changePlan(originalTransactionID:to:)``).
    @discardableResult
    public func purchase(
        bundleID: String, productID: String, customerID: String, options: PurchaseOptions = .init()
    ) throws -> SimulatedTransaction {
        advance()
        guard let app = apps[bundleID] else { throw SimulatorError.notFound("app", bundleID) }
        guard let product = app.product(productID) else { throw SimulatorError.notFound("product", productID) }
        guard !customerID.isEmpty, customerID.utf8.count <= 256 else {
            throw SimulatorError(.invalidCustomer, "customerID must be 1–256 bytes")
        }
        let now = clock.now()
        let price = product.prices[options.storefront] ?? product.prices.values.first ?? 0
        var transaction = SimulatedTransaction(
            transactionID: nextID(2_000_000_000_000_000), originalTransactionID: "",
            webOrderLineItemID: nextID(2_000_000_100_000_000),
            orderID: orderID(), bundleID: bundleID, customerID: customerID, productID: productID,
            type: product.kind.rawValue,
            subscriptionGroupID: product.subscriptionGroupID, purchaseDate: now, originalPurchaseDate: now,
            expiresDate: nil,
            price: price, currency: options.storefront == "JPN" ? "JPY" : "USD", storefront: options.storefront,
            ownership: options.familyShared ? "FAMILY_SHARED" : "PURCHASED", isUpgraded: false, reason: "PURCHASE",
            appAccountToken: options.appAccountToken)
        transaction.originalTransactionID = transaction.transactionID
        guard product.kind == .autoRenewable, let group = product.subscriptionGroupID, let period = product.period
        else {
            guard options.billingPlan == nil, options.replacing == nil else {
                throw SimulatorError(
                    .invalidBillingPlan, "billingPlan and replacing apply to auto-renewable subscriptions only")
            }
            try Self.applyOneTimeOffer(options.offer, product: product, to: &transaction)
            record(transaction)
            emit("ONE_TIME_CHARGE", nil, v1: nil, transaction: transaction, subscription: nil, at: now)
            return transaction
        }
        let existing = customerSubscriptions(bundleID: bundleID, customerID: customerID).first {
            $0.subscriptionGroupID == group
        }
        if let existing, existing.status != .expired, existing.status != .revoked {
            throw SimulatorError(
                .alreadySubscribed,
                "customer \(customerID) already has subscription \(existing.originalTransactionID) in group \(group); change plan instead",
                kind: .conflict)
        }
        let monthly = try Self.commitmentPrice(
            plan: options.billingPlan, product: product, storefront: options.storefront, offer: options.offer)
        if let replacing = options.replacing {
            _ = try replacedSubscription(replacing, bundleID: bundleID, customerID: customerID, group: group)
            transaction.previousOriginalTransactionID = replacing
        }
        var length = configuration.rate.seconds(for: period)
        var introPeriodsLeft = 0
        let introKey = "\(bundleID)|\(customerID)|\(group)"
        switch options.offer {
        case .introductory:
            guard let intro = product.introductoryOffer else {
                throw SimulatorError(.noOffer, "product \(productID) has no introductory offer")
            }
            if !introUsed.contains(introKey) {
                transaction.offerType = 1
                transaction.offerDiscountType = intro.discountType
                transaction.offerPeriod = intro.period.rawValue
                transaction.price = intro.price
                length = configuration.rate.seconds(for: intro.period)
                introPeriodsLeft = intro.discountType == "PAY_AS_YOU_GO" ? max(0, intro.periods - 1) : 0
                if intro.discountType == "PAY_UP_FRONT" { length *= Double(max(1, intro.periods)) }
                introUsed.insert(introKey)
            }
        case .promotional(let identifier):
            length = try Self.applyOffer(
                product.promotionalOffers[identifier], type: 2, identifier: identifier,
                what: "promotional offer", product: productID, to: &transaction, rate: configuration.rate)
            try acceptOfferProof(
                options.offerProof, app: app, productID: productID, offerID: identifier,
                appAccountToken: options.appAccountToken)
        case .offerCode(let reference):
            length = try Self.applyOffer(
                product.offerCodes[reference], type: 3, identifier: reference,
                what: "offer code", product: productID, to: &transaction, rate: configuration.rate)
        case .winBack(let identifier):
            guard let existing, eligibleWinBackOfferIDs(existing).contains(identifier) else {
                throw SimulatorError(
                    .notEligible,
                    "customer \(customerID) is not eligible for win-back offer \(identifier) of \(productID): it needs an expired subscription in the group",
                    kind: .conflict)
            }
            length = try Self.applyOffer(
                product.winBackOffers?[identifier], type: 4, identifier: identifier,
                what: "win-back offer", product: productID, to: &transaction, rate: configuration.rate)
        case nil:
            break
        }
        if let monthly {
            length = bill(&transaction, commitmentPeriod: 1, endsAt: commitmentEnd(from: now), monthly: monthly)
        } else if product.monthlyCommitmentPrices != nil {
            transaction.billingPlanType = "BILLED_UPFRONT"
        }
        transaction.expiresDate = now.addingTimeInterval(length)
        let subtype: String
        if var lapsed = existing {
            transaction.originalTransactionID = lapsed.originalTransactionID
            transaction.originalPurchaseDate = transactions[lapsed.latestTransactionID]?.originalPurchaseDate ?? now
            lapsed.productID = productID
            lapsed.autoRenewProductID = productID
            lapsed.autoRenewEnabled = true
            lapsed.status = .active
            lapsed.latestTransactionID = transaction.transactionID
            lapsed.periodEnd = transaction.expiresDate!
            lapsed.recentStart = now
            lapsed.expirationIntent = nil
            lapsed.priceIncreaseStatus = nil
            lapsed.introPeriodsLeft = introPeriodsLeft
            lapsed.nextRenewalFails = false
            subscriptions[lapsed.originalTransactionID] = lapsed
            subtype = "RESUBSCRIBE"
        } else {
            subscriptions[transaction.transactionID] = SimulatedSubscription(
                originalTransactionID: transaction.transactionID, bundleID: bundleID, customerID: customerID,
                subscriptionGroupID: group, productID: productID, autoRenewProductID: productID, autoRenewEnabled: true,
                status: .active, latestTransactionID: transaction.transactionID, periodEnd: transaction.expiresDate!,
                renewalCount: 0, recentStart: now, nextRenewalFails: false, graceEndsAt: nil,
                graceExpiredNotified: false,
                retryEndsAt: nil, expirationIntent: nil, priceIncreaseStatus: nil, pendingPrice: nil,
                introPeriodsLeft: introPeriodsLeft, ownership: transaction.ownership,
                appAccountToken: options.appAccountToken)
            subtype = "INITIAL_BUY"
        }
        record(transaction)
        subscriptions[transaction.originalTransactionID]!.commitmentPeriod = transaction.commitmentPeriod
        subscriptions[transaction.originalTransactionID]!.commitmentEndsAt = transaction.commitmentExpiresDate
        subscriptions[transaction.originalTransactionID]!.commitmentAutoRenewEnabled =
            transaction.commitmentPeriod == nil ? nil : true
        subscriptions[transaction.originalTransactionID]!.previousOriginalTransactionID =
            transaction.previousOriginalTransactionID
        let subscription = subscriptions[transaction.originalTransactionID]!
        let type = transaction.offerType == 3 ? "OFFER_REDEEMED" : "SUBSCRIBED"
        emit(
            type, subtype, v1: subtype == "INITIAL_BUY" ? "INITIAL_BUY" : "INTERACTIVE_RENEWAL",
            subscription: subscription, transactionID: transaction.transactionID, at: now)
        if let replacing = options.replacing { stopRenewing(replaced: replacing, at: now) }
        return transaction
    }

    /// Writes a promotional offer or offer code into a purchase; returns the first period's length.
    static func applyOffer(
        _ offer: SimulatedProduct.Offer?, type: Int, identifier: String, what: String, product: String,
        to transaction: inout SimulatedTransaction, rate: SandboxRate
    ) throws -> TimeInterval {
        guard let offer else { throw SimulatorError(.noOffer, "product \(product) has no \(what) \"\(identifier)\"") }
        transaction.offerType = type
        transaction.offerIdentifier = identifier
        transaction.offerDiscountType = offer.discountType
        transaction.offerPeriod = offer.period.rawValue
        transaction.price = offer.price
        return rate.seconds(for: offer.period)
    }

    /// An offer code on a consumable, non-consumable or non-renewing product: Apple's `ONE_TIME` discount (offer type
    /// 3, no period). Other offers do not apply to these products.
    /// - Throws: ``SimulatorError`` `no_offer` for an unknown code or another kind of offer.
    static func applyOneTimeOffer(
        _ choice: PurchaseOptions.OfferChoice?, product: SimulatedProduct, to transaction: inout SimulatedTransaction
    ) throws {
        guard let choice else { return }
        guard case .offerCode(let reference) = choice, let offer = product.offerCodes[reference],
            offer.discountType == "ONE_TIME"
        else {
            throw SimulatorError(
                .noOffer, "\(product.productID) takes only one-time offer codes; \(choice) does not apply")
        }
        transaction.offerType = 3
        transaction.offerIdentifier = reference
        transaction.offerDiscountType = "ONE_TIME"
        transaction.price = offer.price
    }

    /// The win-back offers a customer with subscription `s` may redeem, best (cheapest) first: those of its product
    /// once it has expired — not while active, in grace or billing retry, or revoked (Apple's rule).
    func eligibleWinBackOfferIDs(_ s: SimulatedSubscription) -> [String] {
        guard s.status == .expired, let offers = apps[s.bundleID]?.product(s.productID)?.winBackOffers else {
            return []
        }
        return offers.sorted { ($0.value.price, $0.key) < ($1.value.price, $1.key) }.map(\.key)
    }

    // MARK: - Subscription changes

    func activeSubscription(_ originalTransactionID: String) throws -> SimulatedSubscription {
        advance()
        guard let subscription = subscriptions[originalTransactionID] else {
            throw SimulatorError.notFound("subscription", originalTransactionID)
        }
        return subscription
    }

    /// Turns auto-renew off or on (DID_CHANGE_RENEWAL_STATUS).
    /// - Parameters:
    ///   - originalTransactionID: The subscription.
    ///   - enabled: Whether it should renew.
    public func setAutoRenew(originalTransactionID: String, enabled: Bool) throws {
        var subscription = try activeSubscription(originalTransactionID)
        if let period = subscription.commitmentPeriod {
            // A commitment plan: the customer cancels (or restores) the next commitment; every period of this
            // one still bills, so auto-renew stays on until the last.
            guard subscription.commitmentAutoRenewEnabled != enabled else { return }
            subscription.commitmentAutoRenewEnabled = enabled
            subscription.autoRenewEnabled = enabled || period < SimulatedProduct.commitmentPeriods
        } else {
            guard subscription.autoRenewEnabled != enabled else { return }
            subscription.autoRenewEnabled = enabled
        }
        subscription.expirationIntent = enabled ? nil : subscription.expirationIntent
        subscriptions[originalTransactionID] = subscription
        emit(
            "DID_CHANGE_RENEWAL_STATUS", enabled ? "AUTO_RENEW_ENABLED" : "AUTO_RENEW_DISABLED",
            v1: "DID_CHANGE_RENEWAL_STATUS", subscription: subscription, at: clock.now())
    }

    /// Makes the next renewal fail to bill: it enters billing retry, in grace if the app has a grace period.
    /// - Parameter originalTransactionID: The subscription.
    public func failNextRenewal(originalTransactionID: String) throws {
        var subscription = try activeSubscription(originalTransactionID)
        subscription.nextRenewalFails = true
        revision &+= 1
        subscriptions[originalTransactionID] = subscription
    }

    /// Billing succeeds again during retry or grace: a new period starts now (DID_RENEW / BILLING_RECOVERY).
    /// - Parameter originalTransactionID: The subscription.
    /// - Returns: The recovery transaction.
    @discardableResult
    public func recoverBilling(originalTransactionID: String) throws -> SimulatedTransaction {
        var subscription = try activeSubscription(originalTransactionID)
        guard subscription.status == .billingRetry || subscription.status == .billingGracePeriod else {
            throw SimulatorError(
                .notInBillingRetry, "subscription \(originalTransactionID) is \(subscription.status)",
                kind: .conflict)
        }
        let transaction = renewalTransaction(&subscription, startingAt: clock.now())
        subscriptions[originalTransactionID] = subscription
        emit(
            "DID_RENEW", "BILLING_RECOVERY", v1: "DID_RECOVER", subscription: subscription,
            transactionID: transaction.transactionID, at: clock.now())
        return transaction
    }

    /// Upgrades, downgrades or crossgrades within the group. Upgrades (a higher level, i.e. a smaller number)
    /// and same-period crossgrades take effect now; downgrades and other crossgrades at the next renewal.
    /// Changing back to the current product cancels a pending change.
    /// - Parameters:
    ///   - originalTransactionID: The subscription.
    ///   - productID: The new product.
    /// - Returns: The new transaction when the change is immediate.
    @discardableResult
    public func changePlan(originalTransactionID: String, to productID: String) throws -> SimulatedTransaction? {
        var subscription = try activeSubscription(originalTransactionID)
        let app = apps[subscription.bundleID]!
        guard let target = app.product(productID), target.subscriptionGroupID == subscription.subscriptionGroupID else {
            throw SimulatorError(
                .invalidProduct, "product \(productID) is not in group \(subscription.subscriptionGroupID)")
        }
        guard subscription.status == .active else {
            throw SimulatorError(
                .notActive, "subscription \(originalTransactionID) is \(subscription.status)", kind: .conflict)
        }
        let now = clock.now()
        let current = app.product(subscription.productID)!
        if productID == subscription.productID {
            guard subscription.autoRenewProductID != productID else { return nil }
            subscription.autoRenewProductID = productID
            subscriptions[originalTransactionID] = subscription
            emit("DID_CHANGE_RENEWAL_PREF", nil, v1: "DID_CHANGE_RENEWAL_PREF", subscription: subscription, at: now)
            return nil
        }
        let immediate =
            target.level < current.level || (target.level == current.level && target.period == current.period)
        guard immediate else {
            subscription.autoRenewProductID = productID
            subscriptions[originalTransactionID] = subscription
            emit(
                "DID_CHANGE_RENEWAL_PREF", "DOWNGRADE", v1: "DID_CHANGE_RENEWAL_PREF", subscription: subscription,
                at: now)
            return nil
        }
        var old = transactions[subscription.latestTransactionID]!
        old.isUpgraded = true
        old.revocationDate = now
        record(old)
        subscription.autoRenewProductID = productID
        let transaction = renewalTransaction(&subscription, startingAt: now)
        var upgraded = transaction
        upgraded.reason = "PURCHASE"
        record(upgraded)
        subscription.renewalCount -= 1
        subscriptions[originalTransactionID] = subscription
        emit(
            "DID_CHANGE_RENEWAL_PREF", "UPGRADE", v1: "INTERACTIVE_RENEWAL", subscription: subscription,
            transactionID: upgraded.transactionID, at: now)
        return upgraded
    }
}
