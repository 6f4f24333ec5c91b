import AppStoreModels
import AppStoreSigning
import AppStoreVerification
public import Foundation
import StoreKeeperWire

extension AppStoreSimulator {
    /// Which verifyReceipt host was called.
    public enum ReceiptEndpoint: String, Sendable {
        /// `buy.itunes.apple.com`.
        case production
        /// `sandbox.itunes.apple.com`.
        case sandbox
    }

    var receiptType: String { configuration.environment == "Production" ? "Production" : "ProductionSandbox" }

    func customerTransactions(bundleID: String, customerID: String) -> [SimulatedTransaction] {
        (transactionIDsByCustomer[bundleID + "\n" + customerID] ?? []).compactMap { transactions[$0] }
    }

    /// A customer's subscriptions of one app (each has at least one transaction of that customer).
    func customerSubscriptions(bundleID: String, customerID: String) -> [SimulatedSubscription] {
        Set(customerTransactions(bundleID: bundleID, customerID: customerID).map(\.originalTransactionID))
            .compactMap { subscriptions[$0] }
    }

    /// The app receipt a device of `customerID` would hold now: PKCS#7 in Apple's layout, signed by the
    /// simulator's RSA chain. The opaque value carries the customer id, so verifyReceipt can find the account.
    public func receipt(bundleID: String, customerID: String) throws -> String {
        advance()
        guard apps[bundleID] != nil else { throw SimulatorError.notFound("app", bundleID) }
        return receiptBase64(bundleID: bundleID, customerID: customerID, at: clock.now())
    }

    func receiptBase64(bundleID: String, customerID: String, at instant: Date) -> String {
        typealias W = DERWriter
        let attribute = SyntheticReceipt.attribute
        func date(_ value: Date?) -> [UInt8] { W.ia5String(value.map(AppleDateFormat.rfc3339) ?? "") }
        var attributes = [
            attribute(0, W.utf8String(receiptType)), attribute(1, W.integer(apps[bundleID]?.appAppleID ?? 0)),
            attribute(2, W.utf8String(bundleID)), attribute(3, W.utf8String("1")),
            attribute(4, Array(customerID.utf8)), attribute(5, Array(repeating: 0, count: 20)),
            attribute(12, date(instant)), attribute(19, W.utf8String("1.0")),
        ]
        for t in customerTransactions(bundleID: bundleID, customerID: customerID) where t.purchaseDate <= instant {
            var fields = [
                attribute(1701, W.integer(1)), attribute(1702, W.utf8String(t.productID)),
                attribute(1703, W.utf8String(t.transactionID)), attribute(1704, date(t.purchaseDate)),
                attribute(1705, W.utf8String(t.originalTransactionID)), attribute(1706, date(t.originalPurchaseDate)),
                attribute(1708, date(t.expiresDate)), attribute(1711, W.integer(Int64(t.webOrderLineItemID) ?? 0)),
                attribute(1712, date(t.revocationDate)),
                attribute(1713, W.integer(t.offerType == 1 && t.offerDiscountType == "FREE_TRIAL" ? 1 : 0)),
                attribute(1719, W.integer(t.offerType == 1 && t.offerDiscountType != "FREE_TRIAL" ? 1 : 0)),
            ]
            if t.offerType == 2, let id = t.offerIdentifier { fields.append(attribute(1721, W.utf8String(id))) }
            attributes.append(attribute(17, W.set(fields)))
        }
        let der = (try? pki.receipts.sign(W.set(attributes))) ?? []
        return Base64.standardEncode(der)
    }

    func receiptItem(_ t: SimulatedTransaction) -> [String: Any] {
        var item = InAppTransactionInfo()
        item.quantity = 1
        item.productId = t.productID
        item.transactionId = t.transactionID
        item.originalTransactionId = t.originalTransactionID
        item.webOrderLineItemId = t.webOrderLineItemID
        item.purchaseDate = t.purchaseDate
        item.originalPurchaseDate = t.originalPurchaseDate
        item.expiresDate = t.expiresDate
        item.cancellationDate = t.revocationDate
        item.cancellationReason =
            t.revocationDate == nil ? nil : t.revocationReason.map(RevocationReason.init(rawValue:))
        item.isTrialPeriod = t.offerType == 1 && t.offerDiscountType == "FREE_TRIAL"
        item.isInIntroOfferPeriod = t.offerType == 1 && t.offerDiscountType != "FREE_TRIAL"
        item.isUpgraded = t.isUpgraded ? true : nil
        item.promotionalOfferId = t.offerType == 2 ? t.offerIdentifier : nil
        item.offerCodeRefName = t.offerType == 3 ? t.offerIdentifier : nil
        item.subscriptionGroupIdentifier = t.subscriptionGroupID
        item.appAccountToken = t.appAccountToken
        item.inAppOwnershipType = OwnershipType(rawValue: t.ownership)
        let data = (try? JSONEncoder().encode(item)) ?? Data("{}".utf8)
        return (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
    }

    /// `latest_receipt_info`: newest first; with `excludeOld`, only each subscription's latest.
    func latestReceiptInfo(bundleID: String, customerID: String, excludeOld: Bool) -> [[String: Any]] {
        var list = customerTransactions(bundleID: bundleID, customerID: customerID)
        if excludeOld {
            let latest = Set(
                customerSubscriptions(bundleID: bundleID, customerID: customerID).map(\.latestTransactionID))
            list = list.filter { $0.expiresDate == nil || latest.contains($0.transactionID) }
        }
        return list.sorted { ($0.purchaseDate, $0.transactionID) > ($1.purchaseDate, $1.transactionID) }.map(
            receiptItem)
    }

    func pendingRenewalInfo(bundleID: String, customerID: String) -> [[String: Any]] {
        customerSubscriptions(bundleID: bundleID, customerID: customerID)
            .sorted { $0.originalTransactionID < $1.originalTransactionID }
            .map { s in
                var item = PendingRenewalInfo()
                item.originalTransactionId = s.originalTransactionID
                item.productId = s.productID
                item.autoRenewProductId = s.autoRenewProductID
                item.autoRenewStatus = s.autoRenewEnabled ? .on : .off
                item.isInBillingRetryPeriod = s.status == .billingRetry || s.status == .billingGracePeriod
                item.expirationIntent =
                    s.status == .active ? nil : s.expirationIntent.map(ExpirationIntent.init(rawValue:))
                item.gracePeriodExpiresDate = s.graceEndsAt
                item.priceConsentStatus = s.priceIncreaseStatus.map(PriceIncreaseStatus.init(rawValue:))
                let data = (try? JSONEncoder().encode(item)) ?? Data("{}".utf8)
                return (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
            }
    }

    /// Answers a verifyReceipt request body exactly as Apple does: HTTP 200 with a `status`.
    /// - Parameters:
    ///   - body: The request body.
    ///   - endpoint: Which host was called.
    /// - Returns: The response JSON.
    public func verifyReceipt(body: Data, endpoint: ReceiptEndpoint) async -> Data {
        advance()
        func status(_ code: Int, retryable: Bool = false) -> Data {
            var object: [String: Any] = ["status": code]
            if retryable { object["is-retryable"] = true }
            if code == 21007 || code == 21008 { object["environment"] = configuration.environment }
            return Self.json(object)
        }
        if let forced = forcedVerifyReceiptStatus {
            return status(forced, retryable: VerifyReceiptStatus.isRetryable(forced))
        }
        guard let request = try? JSONDecoder().decode(VerifyReceiptRequest.self, from: body) else {
            return status(21000)
        }
        guard let der = Base64.decode(request.receiptData, ignoringWhitespace: true), !der.isEmpty else {
            return status(21002)
        }
        let verifier: AppReceiptVerifier
        do {
            verifier = try AppReceiptVerifier(configuration: .init(rootCertificates: [pki.receiptRootDER]))
        } catch {
            return status(21009)
        }
        let receipt: AppReceipt
        do { receipt = try await verifier.verify(der: der).receipt } catch let error as VerificationError {
            return status(error.code == .malformed ? 21002 : 21003)
        } catch {
            return status(21003)
        }
        let isSandboxReceipt = receipt.receiptType == "ProductionSandbox"
        if endpoint == .production, isSandboxReceipt { return status(21007) }
        if endpoint == .sandbox, !isSandboxReceipt { return status(21008) }
        guard let bundleID = receipt.bundleID, let app = apps[bundleID] else { return status(21003) }
        let customerID = String(decoding: receipt.opaqueValue, as: UTF8.self)
        if deletedCustomers.contains(customerID) { return status(21010) }
        let hasSubscriptions = !customerSubscriptions(bundleID: bundleID, customerID: customerID).isEmpty
        if let password = request.password {
            guard password == app.sharedSecret else { return status(21004) }
        } else if hasSubscriptions {
            return status(21004)
        }
        var info = receipt.receiptInfo
        info.requestDate = clock.now()
        let encodedReceipt = (try? JSONSerialization.jsonObject(with: JSONEncoder().encode(info))) ?? [:]
        var response: [String: Any] = [
            "status": 0, "environment": configuration.environment, "receipt": encodedReceipt,
        ]
        if hasSubscriptions {
            response["latest_receipt"] = receiptBase64(bundleID: bundleID, customerID: customerID, at: clock.now())
            response["latest_receipt_info"] = latestReceiptInfo(
                bundleID: bundleID, customerID: customerID, excludeOld: request.excludeOldTransactions == true)
            response["pending_renewal_info"] = pendingRenewalInfo(bundleID: bundleID, customerID: customerID)
        }
        return Self.json(response)
    }
}
