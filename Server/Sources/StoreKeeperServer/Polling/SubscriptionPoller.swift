import AppStoreClient
import AppStoreVerification
import Foundation
import Logging
import ServiceLifecycle
import StoreKeeperStorage
import SubscriptionEngine

/// Asks Apple about subscribers when their poll is due (``PollSchedule``, set by every write), so a renewal,
/// a billing failure or an expiry is known though its notification was lost and the app was never opened. It
/// leases due subscribers in batches, asks App Store Server API Get All Subscription Statuses (apps with API
/// credentials; otherwise verifyReceipt with the subscriber's latest receipt), and sends what it learns through the same write path as everything else, with cause `poll`.
/// Per app it paces its requests, and backs off when Apple answers 429 (for its `Retry-After`) or fails.
struct SubscriptionPoller: Service {
    /// What one poll did.
    enum Outcome: Equatable {
        /// Apple told something new; it was written.
        case learned
        /// Apple told nothing new; the next poll is scheduled.
        case unchanged
        /// Not asked (no API credentials, nothing to ask with, the app is backing off).
        case skipped(String)
        /// Apple could not be asked; tried again later.
        case failed(String)
    }

    let service: IntakeService
    let schedule: PollSchedule
    let interval: Duration
    let batch: Int
    let lease: TimeInterval
    let pacing: RequestPacing

    /// A poller.
    /// - Parameters:
    ///   - service: The intake (store, apps, client, engine, clock).
    ///   - schedule: When to ask again.
    ///   - requestsPerSecond: The most requests per second to Apple for one app.
    ///   - interval: How often to look for due polls.
    init(
        service: IntakeService, schedule: PollSchedule, requestsPerSecond: Double = 10,
        interval: Duration = .seconds(1), batch: Int = 50, lease: TimeInterval = 120
    ) {
        self.service = service
        self.schedule = schedule
        self.interval = interval
        self.batch = batch
        self.lease = lease
        pacing = RequestPacing(minimumGap: 1 / max(requestsPerSecond, 0.001))
    }

    func run() async throws {
        await WorkLoop(interval: interval, logger: service.logger, failure: "polling Apple failed").run {
            try await pollDue() == batch
        }
    }

    /// Leases the due polls and asks Apple about each.
    /// - Returns: How many were leased.
    @discardableResult
    func pollDue() async throws -> Int {
        let now = service.now()
        let due = try await service.polls.leasePolls(now: now, leaseUntil: now.addingTimeInterval(lease), limit: batch)
        for poll in due {
            switch await self.poll(poll) {
            case .learned: ServerMetrics.poll(outcome: "learned")
            case .unchanged: ServerMetrics.poll(outcome: "unchanged")
            case .skipped: ServerMetrics.poll(outcome: "skipped")
            case .failed: ServerMetrics.poll(outcome: "failed")
            }
        }
        let oldest = try await service.polls.oldestDuePoll(now: service.now())
        ServerMetrics.pollLag(oldest.map { max(0, service.now().timeIntervalSince($0)) } ?? 0)
        return due.count
    }

    /// What Apple said about a subscriber: the evidence, its signed or base64 form as stored, and its kind.
    struct Answer {
        var evidence: EvidenceSet
        var raw: [String]
        var kind: String
    }

    /// Asks Apple about one subscriber and writes what is new.
    func poll(_ due: DuePoll) async -> Outcome {
        let (store, polls) = (service.store, service.polls)
        let user = ProjectScope.value(ofKey: due.appUserKey)
        func release(_ next: Date?) async { try? await polls.releasePoll(appUserKey: due.appUserKey, nextAt: next) }
        guard let app = service.apps[due.bundleID] else {
            await release(service.now().addingTimeInterval(schedule.sweep))
            return .skipped("\(due.bundleID) is not configured")
        }
        if let resume = await pacing.pausedUntil(due.bundleID), resume > service.now() {
            await release(resume)
            return .skipped("\(due.bundleID) is backing off")
        }
        do {
            guard let snapshot = try await store.snapshot(user, in: app.project) else {
                await release(nil)
                return .skipped("no subscriber \(user)")
            }
            let stored = try store.decodeEvidence(snapshot)
            let asked: Answer?
            if let credentials = app.credentials {
                asked = try await statuses(stored, app: app, credentials: credentials)
            } else {
                asked = try await receipt(due, app: app)
            }
            guard let answer = asked else {
                await release(service.now().addingTimeInterval(schedule.sweep))
                return .skipped("nothing to ask Apple with")
            }
            let now = service.now()
            var union = stored
            union.formUnion(answer.evidence)
            let after = service.engine.evaluate(union, at: now)
            // What the row does not hold yet, unless it is history the row would fold away again (a receipt lists
            // every past period).
            let newTransactions = Set(answer.evidence.transactions.map(\.transactionID)).subtracting(
                stored.transactions.map(\.transactionID)
            ).subtracting(service.engine.fold(union, at: now).folded.transactions.map(\.transactionID))
            if answer.raw.isEmpty
                || (newTransactions.isEmpty
                    && Self.facts(after) == Self.facts(service.engine.evaluate(stored, at: now)))
            {
                let next = schedule.next(after, now: now, random: Double.random(in: 0..<1))
                await release(next.map { max($0, now.addingTimeInterval(min(schedule.afterExpiry, 60))) })
                return .unchanged
            }
            let write = EvidenceWrite(
                project: app.project, bundleID: due.bundleID, appUserID: user, kind: answer.kind,
                rawBody: answer.raw.joined(separator: "\n"), evidence: answer.evidence,
                originalTransactionIDs: IntakeService.originals(answer.evidence), cause: .poll,
                eventType: "polled",
                detail: ["transactions": .integer(Int64(answer.evidence.transactions.count))])
            // A poll never takes a subscription from whoever owns it (the same Apple account may serve several of
            // the app's users): what it learns about another owner's subscription stays with that owner.
            _ = try await store.apply(write, policy: .keepFirst, now: now)
            await release(nil)
            return .learned
        } catch {
            let pause = await pacing.failed(
                due.bundleID, retryAfter: (error as? AppStoreClientError)?.retryAfter, now: service.now())
            let next = service.now().addingTimeInterval(max(pause, min(schedule.whileFailing, 3_600)))
            await release(next)
            service.logger.warning(
                "could not poll a subscriber; trying again later",
                metadata: ["bundle_id": "\(due.bundleID)", "reason": "\(error)", "next": "\(next)"])
            return .failed("\(error)")
        }
    }

    /// App Store Server API Get All Subscription Statuses, asked with the subscriber's latest transaction.
    func statuses(_ stored: EvidenceSet, app: AppRuntime, credentials: AppStoreClient.Credentials) async throws
        -> Answer?
    {
        guard
            let latest = stored.transactions.max(by: {
                ($0.purchaseDate ?? .distantPast, $0.transactionID) < (
                    $1.purchaseDate ?? .distantPast, $1.transactionID
                )
            })
        else { return nil }
        await pacing.wait(for: app.configuration.bundleID)
        let statuses = try await service.client.allSubscriptionStatuses(
            transactionID: latest.transactionID, credentials: credentials)
        await pacing.succeeded(app.configuration.bundleID)
        let verified = await VerifiedStatuses(statuses, app: app)
        for failure in verified.failures {
            service.logger.warning(
                "a polled subscription status does not verify; left out",
                metadata: ["bundle_id": "\(app.configuration.bundleID)", "reason": "\(failure.error)"])
        }
        return Answer(evidence: verified.evidence, raw: verified.signed, kind: "subscription_statuses")
    }

    /// For an app without API credentials: verifyReceipt on the subscriber's latest stored receipt, excluding old
    /// transactions. The answer's `latest_receipt` is stored as the next poll's receipt.
    func receipt(_ due: DuePoll, app: AppRuntime) async throws -> Answer? {
        guard let receipt = try await service.store.latestReceipt(appUserKey: due.appUserKey) else { return nil }
        await pacing.wait(for: due.bundleID)
        let response = try await service.client.verifyReceipt(
            receipt, sharedSecret: app.configuration.sharedSecret, excludeOldTransactions: true)
        await pacing.succeeded(due.bundleID)
        guard response.receipt?.bundleId == due.bundleID else {
            throw ServiceError.unverifiable(
                .unexpectedBundleID,
                "verifyReceipt answered for \"\(response.receipt?.bundleId ?? "absent")\", not \(due.bundleID)")
        }
        var evidence = EvidenceSet()
        evidence.add(verifyReceiptResponse: response)
        return Answer(evidence: evidence, raw: [response.latestReceipt ?? receipt], kind: "receipt")
    }

    /// A state's facts without its explanations (which name observation dates that change with every poll).
    static func facts(_ state: CustomerState) -> CustomerState {
        var facts = state
        for index in facts.subscriptions.indices { facts.subscriptions[index].explanation = [] }
        for index in facts.purchases.indices { facts.purchases[index].explanation = [] }
        return facts
    }
}

/// Per app: at most one request to Apple every `minimumGap`, and a pause after failures (Apple's `Retry-After`
/// when it gave one, otherwise 30 s doubling to 30 min).
actor RequestPacing {
    let minimumGap: TimeInterval
    var nextSlot: [String: ContinuousClock.Instant] = [:]
    var pauses: [String: (until: Date, length: TimeInterval)] = [:]

    init(minimumGap: TimeInterval) { self.minimumGap = minimumGap }

    /// Waits for the app's next request slot.
    func wait(for app: String) async {
        let now = ContinuousClock.now
        let slot = max(nextSlot[app] ?? now, now)
        nextSlot[app] = slot + .milliseconds(Int64(minimumGap * 1_000))
        if slot > now { try? await Task.sleep(until: slot) }
    }

    /// Until when the app is paused, if it is.
    func pausedUntil(_ app: String) -> Date? { pauses[app]?.until }

    /// A request succeeded: the pause ends.
    func succeeded(_ app: String) { pauses[app] = nil }

    /// A request failed at `now` (the server's clock): pause the app.
    /// - Returns: The pause's length, in seconds.
    func failed(_ app: String, retryAfter: Double?, now: Date) -> TimeInterval {
        let length = retryAfter ?? min((pauses[app]?.length ?? 15) * 2, 1_800)
        pauses[app] = (now.addingTimeInterval(length), length)
        return length
    }
}
