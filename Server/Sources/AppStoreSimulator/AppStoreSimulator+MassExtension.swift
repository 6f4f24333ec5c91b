public import Foundation

/// Extend Subscription Renewal Dates for All Active Subscribers, and its status. Apple works through such a
/// request over hours; the simulator completes it at once, with Apple's notifications: RENEWAL_EXTENDED for each
/// subscription extended, RENEWAL_EXTENSION / FAILURE for each active one it could not extend (in billing retry or
/// grace), then RENEWAL_EXTENSION / SUMMARY with the counts.
extension AppStoreSimulator {
    /// What a mass extension request asks.
    public struct MassExtensionRequest: Sendable, Hashable {
        /// Days to add, 1–90.
        public var extendByDays: Int?
        /// Apple's reason code (0–3).
        public var extendReasonCode: Int?
        /// The caller's id for the request (at most 128 characters).
        public var requestIdentifier: String?
        /// The product whose subscribers are extended.
        public var productID: String?
        /// Only subscribers of these storefronts (all when absent).
        public var storefrontCountryCodes: [String]?

        /// Makes a request.
        public init(
            extendByDays: Int?, extendReasonCode: Int?, requestIdentifier: String?, productID: String?,
            storefrontCountryCodes: [String]? = nil
        ) {
            self.extendByDays = extendByDays
            self.extendReasonCode = extendReasonCode
            self.requestIdentifier = requestIdentifier
            self.productID = productID
            self.storefrontCountryCodes = storefrontCountryCodes
        }
    }

    /// Runs a mass extension for `bundleID`'s subscribers of the request's product.
    /// - Returns: The request identifier.
    /// - Throws: 400 4000000 for a request without product, days (1–90), reason or identifier.
    public func massExtendRenewalDate(bundleID: String, request: MassExtensionRequest) throws(AppStoreAPIError)
        -> String
    {
        advance()
        guard let productID = request.productID, let days = request.extendByDays, (1...90).contains(days),
            let reason = request.extendReasonCode, (0...3).contains(reason), let identifier = request.requestIdentifier,
            !identifier.isEmpty, identifier.count <= 128, let app = apps[bundleID]
        else { throw .invalidRequest }
        let now = clock.now()
        var succeeded = 0
        var failed = 0
        for original in subscriptions.keys.sorted() {
            guard let subscription = subscriptions[original], subscription.bundleID == bundleID,
                subscription.productID == productID
            else { continue }
            if let storefronts = request.storefrontCountryCodes,
                let storefront = transactions[subscription.latestTransactionID]?.storefront,
                !storefronts.contains(storefront)
            {
                continue
            }
            switch subscription.status {
            case .active:
                // extendRenewalDate sends RENEWAL_EXTENDED.
                do {
                    _ = try extendRenewalDate(originalTransactionID: original, days: days, reasonCode: reason)
                    succeeded += 1
                } catch {
                    emit("RENEWAL_EXTENSION", "FAILURE", v1: nil, subscription: subscription, at: now)
                    failed += 1
                }
            case .billingRetry, .billingGracePeriod:
                emit("RENEWAL_EXTENSION", "FAILURE", v1: nil, subscription: subscription, at: now)
                failed += 1
            case .expired, .revoked:
                continue
            }
        }
        var summary: [String: Any] = [
            "environment": configuration.environment, "appAppleId": app.appAppleID, "bundleId": bundleID,
            "productId": productID, "requestIdentifier": identifier, "succeededCount": succeeded,
            "failedCount": failed,
        ]
        if let storefronts = request.storefrontCountryCodes { summary["storefrontCountryCodes"] = storefronts }
        var notification = signedNotification(
            "RENEWAL_EXTENSION", "SUMMARY", bundleID: bundleID, content: ("summary", summary), transactionID: nil,
            at: now)
        notification.nextAttemptAt = app.notificationURL != nil ? now : nil
        log(notification)
        massExtensions.append(
            MassExtension(
                bundleID: bundleID, productID: productID, requestIdentifier: identifier, completedAt: now,
                succeeded: succeeded, failed: failed))
        revision &+= 1
        return identifier
    }

    /// Apple's `MassExtendRenewalDateStatusResponse`.
    public struct MassExtensionStatus: Codable, Sendable, Hashable {
        /// The request's identifier.
        public var requestIdentifier: String
        /// Whether it is complete (always, in the simulator).
        public var complete: Bool
        /// When it completed, in milliseconds since 1970.
        public var completeDate: Int64
        /// Subscriptions extended.
        public var succeededCount: Int
        /// Subscriptions not extended.
        public var failedCount: Int
    }

    /// Get Status of Subscription Renewal Date Extensions.
    /// - Returns: The status.
    /// - Throws: 404 4040009 for a request the simulator does not know.
    public func massExtensionStatus(bundleID: String, productID: String, requestIdentifier: String)
        throws(AppStoreAPIError) -> MassExtensionStatus
    {
        guard
            let done = massExtensions.last(where: {
                $0.bundleID == bundleID && $0.productID == productID && $0.requestIdentifier == requestIdentifier
            })
        else {
            throw AppStoreAPIError(
                httpStatus: 404, errorCode: 4_040_009, errorMessage: "Status request not found.")
        }
        return MassExtensionStatus(
            requestIdentifier: done.requestIdentifier, complete: true,
            completeDate: Self.milliseconds(done.completedAt),
            succeededCount: done.succeeded, failedCount: done.failed)
    }
}

/// A completed mass renewal-date extension, for its status endpoint.
struct MassExtension: Codable, Sendable, Hashable {
    var bundleID: String
    var productID: String
    var requestIdentifier: String
    var completedAt: Date
    var succeeded: Int
    var failed: Int
}
