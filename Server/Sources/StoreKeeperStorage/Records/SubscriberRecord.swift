public import Foundation
public import SubscriptionEngine

/// A subscriber as stored: the materialised evidence (one read answers "what is this user entitled to").
public struct SubscriberRecord: Sendable, Hashable {
    /// The canonical app user id.
    public var appUserID: String
    /// The app.
    public var bundleID: String
    /// Every observation applied to this subscriber.
    public var evidence: EvidenceSet
    /// Other ids that resolve to this subscriber.
    public var aliases: [String]
    /// When the subscriber was first seen.
    public var createdAt: Date
}

/// One row of a subscriber's history.
public struct EventRecord: Sendable, Hashable, Codable {
    /// Increasing id.
    public var id: Int64
    /// The subscriber.
    public var appUserID: String
    /// When.
    public var createdAt: Date
    /// What happened.
    public var type: String
    /// Why.
    public var cause: EventCause
    /// The notification UUID, or another id for the cause.
    public var causeID: String?
    /// The raw evidence row it came from.
    public var evidenceID: Int64?
    /// Facts about the event.
    public var detail: [String: EventValue]
}

/// A stored API key (only its hash).
public struct APIKeyRecord: Sendable, Hashable {
    /// Public SDK key (subscriber endpoints of its app) or secret key (everything).
    public enum Kind: String, Sendable, Hashable, Codable {
        /// `pk_…`.
        case `public`
        /// `sk_…`.
        case secret
    }

    /// What a secret key may do (the API's scopes: `read` < `support` < `admin`). A public key's is `read`.
    public enum Scope: String, Sendable, Hashable, Codable, CaseIterable {
        /// Reads of the project's data.
        case read
        /// Reads, and what support does for one customer.
        case support
        /// Everything.
        case admin
    }

    /// Which kind.
    public var kind: Kind
    /// The app it belongs to.
    public var bundleID: String
    /// What it may do (a secret key configured without a scope: `admin`).
    public var scope: Scope

    /// Makes a record.
    public init(kind: Kind, bundleID: String, scope: Scope? = nil) {
        self.kind = kind
        self.bundleID = bundleID
        self.scope = scope ?? (kind == .secret ? .admin : .read)
    }
}
