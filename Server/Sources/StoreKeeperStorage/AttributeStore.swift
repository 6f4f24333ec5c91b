public import Foundation

/// Subscriber attributes: names and string values the app or the owner's backend set on a customer (an email, a
/// plan of interest), kept with the customer's canonical id (a merge moves them) and published as a change of the
/// customer, so answers that show them are read again on every replica.
public protocol AttributeStore: Sendable {
    /// The attributes of the customer `appUserKey` names (directly or as an alias), with who set each, and the
    /// stored key of the customer they belong to.
    func attributes(appUserKey: String) async throws -> (customerKey: String, attributes: HeldAttributes)

    /// Whether a write by the app would make the customer `appUserKey` names a new guest: the server holds no
    /// evidence for them (no purchase, receipt or app transaction) and no attribute the app set.
    func isNewGuest(appUserKey: String) async throws -> Bool

    /// How many of `project`'s customers without evidence hold attributes the app set or an experiment enrolment,
    /// counted up to `limit`.
    func guests(in project: ProjectScope, limit: Int) async throws -> Int

    /// Sets (a value) or removes (`nil`) attributes of the customer `appUserKey` names, in one transaction: refused
    /// as a whole, changing nothing, when the customer would then hold more than `maximumCustom` attributes whose
    /// names do not start with `$`, or when `source` is ``AttributeSource/client`` and a name changed is one the
    /// owner's backend set. Each value set keeps `source`.
    /// - Returns: The customer's attributes after the change.
    /// - Throws: ``AttributeLimitExceeded`` past the limit; ``AttributeSetByServer`` naming the protected names.
    func setAttributes(
        _ changes: [String: String?], appUserKey: String, maximumCustom: Int, now: Date, source: AttributeSource
    ) async throws -> [String: String]

    /// Which of `customerKeys` (stored customer keys) hold attribute `name` with exactly `value`, set by `source`
    /// (`nil`: by either), and who set it for each.
    func holders(of name: String, value: String, among customerKeys: [String], source: AttributeSource?)
        async throws -> [String: AttributeSource]

    /// Removes the attributes of the customer `appUserKey` names: every one, or only those the app set
    /// (`keepingServerSet`, for a public key's call).
    /// - Returns: How many were removed.
    func deleteAttributes(appUserKey: String, keepingServerSet: Bool) async throws -> Int
}

/// A customer's attributes and who set them.
public struct HeldAttributes: Sendable, Hashable {
    /// Every attribute's value, by name.
    public var values: [String: String]
    /// The names the owner's backend set (with a secret key); the others the app set.
    public var serverSet: Set<String>

    /// Makes a set of attributes.
    public init(values: [String: String] = [:], serverSet: Set<String> = []) {
        self.values = values
        self.serverSet = serverSet
    }
}

/// Who set an attribute: the app (a public key: anyone holding a copy of the app) or the owner's backend (a
/// secret key). What the backend set the app may not change.
public enum AttributeSource: String, Sendable, Hashable {
    /// Set with a public key.
    case client
    /// Set with a secret key.
    case server
}

/// A change by the app to attributes the owner's backend set.
public struct AttributeSetByServer: Error, Hashable, Sendable {
    /// The names, sorted.
    public var names: [String]
}

/// A change that would leave a customer with more custom attributes than allowed.
public struct AttributeLimitExceeded: Error, Hashable, Sendable {
    /// How many custom attributes the customer would hold.
    public var count: Int
    /// The most allowed.
    public var maximum: Int
}
