import AppStoreModels
import Foundation

extension AppStoreSimulator {
    /// Records a notification for an event, signed now, ready for delivery when the app has a URL.
    func emit(
        _ type: String, _ subtype: String?, v1: String?, transaction: SimulatedTransaction? = nil,
        subscription: SimulatedSubscription?, transactionID: String? = nil, at date: Date,
        consumptionReason: String? = nil
    ) {
        let bundleID = transaction?.bundleID ?? subscription?.bundleID ?? ""
        guard let app = apps[bundleID] else { return }
        let transactionRecord =
            transaction ?? (transactionID ?? subscription?.latestTransactionID).flatMap { transactions[$0] }
        var data: [String: Any] = [
            "bundleId": bundleID, "bundleVersion": "1", "environment": configuration.environment,
        ]
        if configuration.environment == "Production" { data["appAppleId"] = app.appAppleID }
        if let transactionRecord {
            data["signedTransactionInfo"] = sign(transactionPayload(transactionRecord, signedAt: date))
        }
        if let subscription {
            data["signedRenewalInfo"] = sign(renewalPayload(subscription, signedAt: date))
            data["status"] = subscription.status.rawValue
        }
        if let consumptionReason { data["consumptionRequestReason"] = consumptionReason }
        var notification = signedNotification(
            type, subtype, bundleID: bundleID, content: ("data", data), transactionID: transactionRecord?.transactionID,
            at: date)
        notification.v1Type = v1
        notification.originalTransactionID =
            transactionRecord?.originalTransactionID ?? subscription?.originalTransactionID
        // The V1 body (with a whole receipt) only for an app that takes V1 notifications.
        if let v1, app.notificationV1URL != nil {
            notification.v1Body = v1Body(
                v1, app: app, transaction: transactionRecord, subscription: subscription, at: date)
        }
        notification.nextAttemptAt = app.notificationURL != nil || app.notificationV1URL != nil ? date : nil
        log(notification)
    }

    /// A V2 notification signed at `date`, with a fresh UUID and `content` (`data`, or `summary` for a mass
    /// extension's) as its payload's member; not yet scheduled for delivery nor logged.
    func signedNotification(
        _ type: String, _ subtype: String?, bundleID: String, content: (key: String, value: [String: Any]),
        transactionID: String?, at date: Date
    ) -> SimulatedNotification {
        let uuid = random.uuid()
        var payload: [String: Any] = [
            "notificationType": type, "notificationUUID": uuid, "version": "2.0",
            "signedDate": Self.milliseconds(date), content.key: content.value,
        ]
        if let subtype { payload["subtype"] = subtype }
        return SimulatedNotification(
            notificationUUID: uuid, bundleID: bundleID, notificationType: type, subtype: subtype,
            signedPayload: sign(payload), v1Body: nil, v1Type: nil, signedDate: date, transactionID: transactionID)
    }

    /// Appends to the log, keeping the UUID index and the delivery queue in step. For an app whose delivery is
    /// `drop`, the notification is recorded with one failed send attempt (`NO_RESPONSE`) and never delivered.
    func log(_ notification: SimulatedNotification) {
        var notification = notification
        if notification.nextAttemptAt != nil, apps[notification.bundleID]?.notificationDelivery == .drop {
            notification.attempts.append(.init(date: notification.signedDate, result: "NO_RESPONSE"))
            notification.nextAttemptAt = nil
        }
        notificationIndex[notification.notificationUUID] = notificationLog.count
        if notification.nextAttemptAt != nil { awaitingDelivery.insert(notificationLog.count) }
        notificationLog.append(notification)
    }

    func v1Body(
        _ type: String, app: SimulatedApp, transaction: SimulatedTransaction?, subscription: SimulatedSubscription?,
        at date: Date
    ) -> Data {
        let customer = transaction?.customerID ?? subscription?.customerID ?? ""
        let unified: [String: Any] = [
            "status": 0, "environment": configuration.environment,
            "latest_receipt": receiptBase64(bundleID: app.bundleID, customerID: customer, at: date),
            "latest_receipt_info": latestReceiptInfo(bundleID: app.bundleID, customerID: customer, excludeOld: false),
            "pending_renewal_info": pendingRenewalInfo(bundleID: app.bundleID, customerID: customer),
        ]
        var body: [String: Any] = [
            "notification_type": type, "password": app.sharedSecret,
            "environment": configuration.environment == "Production" ? "PROD" : "Sandbox",
            "bid": app.bundleID, "bvrs": "1", "unified_receipt": unified,
        ]
        if let subscription {
            body["auto_renew_status"] = subscription.autoRenewEnabled ? "true" : "false"
            body["auto_renew_product_id"] = subscription.autoRenewProductID
            if type == "DID_CHANGE_RENEWAL_STATUS" {
                body["auto_renew_status_change_date_ms"] = String(Self.milliseconds(date))
                body["auto_renew_status_change_date"] = AppleDateFormat.etcGMT(date)
            }
        }
        return Self.json(body)
    }

    // MARK: - Delivery bookkeeping (the HTTP sender lives in the server module)

    /// Notifications due for delivery now, oldest first, after catching the world up to now.
    /// - Parameter limit: The most to return. A deliverer that takes a few at a time comes back here (and so
    ///   catches the world up) often, however far behind it is; one that took thousands would leave the
    ///   renewals of all that time to a single catch-up, holding the simulator for as long.
    /// - Returns: The due notifications.
    public func dueNotifications(limit: Int = .max) -> [SimulatedNotification] {
        advance()
        let now = clock.now()
        return awaitingDelivery.sorted().lazy.filter {
            (self.notificationLog[$0].nextAttemptAt ?? .distantFuture) <= now
        }
        .prefix(max(0, limit)).map { self.notificationLog[$0] }
    }

    /// Days of notification history kept: Apple's Get Notification History reaches 180 days back.
    public static let historyDays = 180.0

    /// Forgets the notifications older than ``historyDays`` (real days, whatever the rate) that have no delivery
    /// attempt left, so memory and the saved world grow with time kept, not with time run. Runs only once the
    /// oldest is a month past the limit, so the log is rebuilt about once a month of simulated time.
    func trimHistory(now: Date) {
        let cutoff = now.addingTimeInterval(-Self.historyDays * 86_400)
        guard let oldest = notificationLog.first, oldest.signedDate < cutoff.addingTimeInterval(-30 * 86_400) else {
            return
        }
        let kept =
            notificationLog.firstIndex { $0.signedDate >= cutoff || $0.nextAttemptAt != nil } ?? notificationLog.count
        guard kept > 0 else { return }
        notificationLog.removeFirst(kept)
        notificationIndex = [:]
        for (position, notification) in notificationLog.enumerated() {
            notificationIndex[notification.notificationUUID] = position
        }
        awaitingDelivery = Set(awaitingDelivery.map { $0 - kept })
        revision &+= 1
    }

    /// How many notifications still have a delivery attempt scheduled (due now or retrying later).
    public var pendingDeliveries: Int { awaitingDelivery.count }

    /// The delivery queue after catching the world up to now: attempts due now, and every one scheduled (due now
    /// or retrying later). A driver that moves the clock waits for `due` to reach 0 before moving it again.
    /// - Returns: Due and scheduled counts.
    public func deliveryBacklog() -> (due: Int, scheduled: Int) {
        advance()
        let now = clock.now()
        let due = awaitingDelivery.count { (notificationLog[$0].nextAttemptAt ?? .distantFuture) <= now }
        return (due, awaitingDelivery.count)
    }

    /// Records a delivery attempt and schedules the next one on Apple's retry schedule (V2: 1, 12, 24, 48,
    /// 72 hours, scaled by the rate), or stops after success or the fifth retry.
    /// - Parameters:
    ///   - notificationUUID: The notification.
    ///   - result: `SUCCESS` or a failure reason.
    public func recordAttempt(notificationUUID: String, result: String) {
        guard let index = notificationIndex[notificationUUID] else { return }
        let now = clock.now()
        notificationLog[index].attempts.append(.init(date: now, result: result))
        revision &+= 1
        let retries = [1.0, 12, 24, 48, 72]
        let failures = notificationLog[index].attempts.filter { $0.result != "SUCCESS" }.count
        if result == "SUCCESS" || failures > retries.count {
            notificationLog[index].nextAttemptAt = nil
            awaitingDelivery.remove(index)
        } else {
            notificationLog[index].nextAttemptAt = now.addingTimeInterval(
                configuration.rate.seconds(forHours: retries[failures - 1]))
        }
    }

    /// Makes an app's notifications reach it (`deliver`) or be lost (`drop`) from now on.
    public func setNotificationDelivery(bundleID: String, _ mode: SimulatedApp.NotificationDelivery) throws {
        guard apps[bundleID] != nil else { throw SimulatorError.notFound("app", bundleID) }
        apps[bundleID]?.notificationDelivery = mode
        revision &+= 1
    }

    /// Sends a TEST notification (Request a Test Notification) and returns its token.
    public func requestTestNotification(bundleID: String) throws -> String {
        guard apps[bundleID] != nil else { throw SimulatorError.notFound("app", bundleID) }
        let token = random.uuid() + "_" + String(Self.milliseconds(clock.now()))
        var notification = signedNotification(
            "TEST", nil, bundleID: bundleID,
            content: ("data", ["bundleId": bundleID, "environment": configuration.environment]), transactionID: nil,
            at: clock.now())
        notification.testNotificationToken = token
        let app = apps[bundleID]!
        notification.nextAttemptAt = app.notificationURL != nil ? clock.now() : nil
        log(notification)
        return token
    }
}

extension AppStoreSimulator {
    /// `RESCIND_CONSENT`: a parent withdrew consent for a minor's use of the app (Apple's age assurance). The
    /// notification carries no `data`, but `appData` with the app and the customer's signed app transaction.
    /// - Throws: ``SimulatorError`` for an unknown app, or a customer with no transaction in it.
    public func rescindConsent(bundleID: String, customerID: String) throws {
        advance()
        guard let app = apps[bundleID] else { throw SimulatorError.notFound("app", bundleID) }
        guard let first = transactionIDsByCustomer[bundleID + "\n" + customerID]?.first else {
            throw SimulatorError.notFound("customer", customerID)
        }
        let signed: String
        do { signed = try appTransactionInfo(transactionID: first, bundleID: bundleID) } catch {
            throw SimulatorError.notFound("customer", customerID)
        }
        let now = clock.now()
        var notification = signedNotification(
            "RESCIND_CONSENT", nil, bundleID: bundleID,
            content: (
                "appData",
                [
                    "appAppleId": app.appAppleID, "bundleId": bundleID, "environment": configuration.environment,
                    "signedAppTransactionInfo": signed,
                ]
            ), transactionID: nil, at: now)
        notification.nextAttemptAt = app.notificationURL != nil ? now : nil
        log(notification)
    }
}
