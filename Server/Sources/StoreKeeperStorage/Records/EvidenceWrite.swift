import Foundation
public import SubscriptionEngine

/// What caused a change: the app posting evidence, a notification from Apple, or a poll of Apple's API.
public enum EventCause: String, Sendable, Hashable, Codable {
    /// The app (through the SDK or the owner's backend) posted evidence.
    case client
    /// An App Store Server Notification.
    case notification
    /// A poll of the App Store Server API.
    case poll
    /// An identity change (alias, transfer).
    case identity
    /// The clock passed a date in the evidence (a period's end, a grace period's end).
    case clock
    /// A notification that never reached the server, found in Apple's notification history.
    case reconciliation
    /// An existing customer brought in (`POST /v1/imports`, `storekeeper import`).
    case imported = "import"
    /// The app's support, with a secret key or the dashboard (a grant, a revocation).
    case support
}

/// Verified evidence to store for a subscriber, with everything needed to apply it atomically.
public struct EvidenceWrite: Sendable {
    /// The project it belongs to: the subscriber and the subscriptions are looked up in this project only.
    public var project: ProjectScope
    /// The app.
    public var bundleID: String
    /// Who posted it; `nil` for notifications, which are routed by original transaction id.
    public var appUserID: String?
    /// What the raw evidence is (`receipt`, `signed_transaction`, `notification_v2`, `notification_v1`…).
    public var kind: String
    /// The raw evidence, verbatim (secrets removed).
    public var rawBody: String
    /// The normalised observations it carries.
    public var evidence: EvidenceSet
    /// The subscriptions (original transaction ids) it is about.
    public var originalTransactionIDs: [String]
    /// What caused it.
    public var cause: EventCause
    /// The notification's UUID (V2) or digest (V1), for deduplication.
    public var notificationID: String?
    /// The event type to record (e.g. `transaction_posted`, `DID_RENEW`).
    public var eventType: String
    /// Extra facts for the event (notification subtype, transaction id…).
    public var detail: [String: EventValue]

    /// Makes a write.
    public init(
        project: ProjectScope, bundleID: String, appUserID: String?, kind: String, rawBody: String,
        evidence: EvidenceSet,
        originalTransactionIDs: [String], cause: EventCause, notificationID: String? = nil, eventType: String,
        detail: [String: EventValue] = [:]
    ) {
        self.project = project
        self.bundleID = bundleID
        self.appUserID = appUserID
        self.kind = kind
        self.rawBody = rawBody
        self.evidence = evidence
        self.originalTransactionIDs = originalTransactionIDs
        self.cause = cause
        self.notificationID = notificationID
        self.eventType = eventType
        self.detail = detail
    }
}

extension EvidenceWrite {
    /// The stored raw evidence's key: SHA-256 of the kind and the raw body, so the same bytes are stored once.
    var digest: String { HexDigest.sha256(kind + "\n" + rawBody) }

    /// This write with its app user id and original transaction ids as the project's stored keys (see
    /// ``ProjectScope``): what every executor works with.
    var keyed: EvidenceWrite {
        var write = self
        write.appUserID = appUserID.map(project.key)
        write.originalTransactionIDs = originalTransactionIDs.map(project.key)
        return write
    }
}

/// What happened to a write.
public enum ApplyOutcome: Sendable, Hashable {
    /// Stored and applied to this subscriber.
    case applied(appUserID: String)
    /// A notification already seen: acknowledged, not applied again.
    case duplicate
    /// A notification about a subscription nobody owns yet: stored, applied when the transaction arrives.
    case pending
    /// A notification about no subscription at all (TEST, summaries): stored and acknowledged.
    case recorded

    /// The outcome's name in answers: `applied`, `duplicate`, `pending` or `recorded`.
    public var status: String {
        switch self {
        case .applied: "applied"
        case .duplicate: "duplicate"
        case .pending: "pending"
        case .recorded: "recorded"
        }
    }
}

/// When the same original transaction arrives for a second user.
public enum TransferPolicy: String, Sendable, Hashable, Codable {
    /// Move the subscription to the new user (restore on a new account).
    case transfer
    /// Keep it with the first user; the second gets nothing from it.
    case keepFirst = "keep-first"
}
