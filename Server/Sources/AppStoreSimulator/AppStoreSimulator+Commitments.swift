import Foundation

/// Commitment plans (Apple, 2026: a yearly subscription billed monthly within a 12-month commitment) and switches
/// between subscriptions (`previousOriginalTransactionId`).
///
/// Each billing period is a month and its own transaction (`billingPlanType` `MONTHLY`, `commitmentInfo` with the
/// period's number). Turning auto-renew off cancels the next commitment only: renewal info keeps `autoRenewStatus`
/// 1 (the next billing period still bills) and sets `commitmentInfo.commitmentAutoRenewStatus` 0, until the last
/// period, after which the subscription expires.
extension AppStoreSimulator {
    /// The monthly price of `product`'s commitment plan when `plan` chooses it; `nil` for up-front billing.
    /// - Throws: ``SimulatorError`` `invalid_billing_plan` for an unknown plan, or a plan the product lacks.
    static func commitmentPrice(
        plan: String?, product: SimulatedProduct, storefront: String, offer: PurchaseOptions.OfferChoice?
    ) throws -> Int64? {
        switch plan {
        case nil, "BILLED_UPFRONT":
            return nil
        case "MONTHLY":
            guard product.kind == .autoRenewable, let prices = product.monthlyCommitmentPrices else {
                throw SimulatorError(
                    .invalidBillingPlan, "product \(product.productID) has no monthly commitment plan")
            }
            guard offer == nil else {
                throw SimulatorError(
                    .invalidBillingPlan, "the simulator does not combine offers with a commitment plan")
            }
            return prices[storefront] ?? prices.values.first ?? 0
        case let other?:
            throw SimulatorError(.invalidBillingPlan, "billingPlan \"\(other)\" must be BILLED_UPFRONT or MONTHLY")
        }
    }

    /// Writes billing period `period` of a commitment ending at `endsAt` into a transaction billed `monthly`, and
    /// returns the period's length.
    func bill(
        _ transaction: inout SimulatedTransaction, commitmentPeriod period: Int, endsAt: Date, monthly: Int64
    ) -> TimeInterval {
        transaction.billingPlanType = "MONTHLY"
        transaction.price = monthly
        transaction.commitmentPeriod = period
        transaction.commitmentExpiresDate = endsAt
        transaction.commitmentPrice = monthly * Int64(SimulatedProduct.commitmentPeriods)
        return configuration.rate.seconds(for: .month)
    }

    /// When a commitment that starts at `start` ends: twelve billing periods later.
    func commitmentEnd(from start: Date) -> Date {
        start.addingTimeInterval(configuration.rate.seconds(for: .month) * Double(SimulatedProduct.commitmentPeriods))
    }

    /// The next billing period of a commitment plan, written into its renewal transaction: the next period of the
    /// commitment, or period 1 of a new one after the last. Returns the period's length, or `nil` when the
    /// subscription is not (or no longer) on a commitment plan.
    func renewCommitment(
        _ subscription: inout SimulatedSubscription, product: SimulatedProduct,
        transaction: inout SimulatedTransaction, at date: Date
    ) -> TimeInterval? {
        guard let current = subscription.commitmentPeriod, let prices = product.monthlyCommitmentPrices else {
            subscription.commitmentPeriod = nil
            subscription.commitmentEndsAt = nil
            subscription.commitmentAutoRenewEnabled = nil
            if product.monthlyCommitmentPrices != nil { transaction.billingPlanType = "BILLED_UPFRONT" }
            return nil
        }
        if current >= SimulatedProduct.commitmentPeriods {
            subscription.commitmentPeriod = 1
            subscription.commitmentEndsAt = commitmentEnd(from: date)
        } else {
            subscription.commitmentPeriod = current + 1
        }
        let length = bill(
            &transaction, commitmentPeriod: subscription.commitmentPeriod!, endsAt: subscription.commitmentEndsAt!,
            monthly: prices[transaction.storefront] ?? prices.values.first ?? 0)
        if subscription.commitmentPeriod == SimulatedProduct.commitmentPeriods,
            subscription.commitmentAutoRenewEnabled == false
        {
            // The last billing period of a cancelled commitment: nothing renews after it.
            subscription.autoRenewEnabled = false
        }
        return length
    }

    /// The customer's subscription that a purchase replaces, checked: it must be theirs, in this app, in another
    /// group (a bundle and a standalone subscription are different groups).
    /// - Throws: ``SimulatorError`` `invalid_replacement`.
    func replacedSubscription(_ id: String, bundleID: String, customerID: String, group: String) throws
        -> SimulatedSubscription
    {
        guard let replaced = subscriptions[id], replaced.bundleID == bundleID, replaced.customerID == customerID,
            replaced.subscriptionGroupID != group
        else {
            throw SimulatorError(
                .invalidReplacement,
                "replacing \"\(id)\" must name a subscription of customer \(customerID) in \(bundleID) in another group"
            )
        }
        return replaced
    }

    /// Stops a replaced subscription from renewing (DID_CHANGE_RENEWAL_STATUS / AUTO_RENEW_DISABLED when it was on).
    func stopRenewing(replaced id: String, at date: Date) {
        guard var replaced = subscriptions[id], replaced.autoRenewEnabled else { return }
        replaced.autoRenewEnabled = false
        replaced.commitmentAutoRenewEnabled = replaced.commitmentAutoRenewEnabled.map { _ in false }
        subscriptions[id] = replaced
        emit(
            "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", v1: "DID_CHANGE_RENEWAL_STATUS",
            subscription: replaced, at: date)
    }
}
