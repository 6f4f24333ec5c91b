import Foundation
public import SubscriptionEngine

/// Who asks for a merge of two ids, and so which customers may be merged into another
/// (``EvidenceStore/alias(_:to:in:bundleID:now:authority:)``). The rule is decided here, once, and applied inside
/// the merge's own transaction, to the customer the id resolves to there.
public enum MergeAuthority: Sendable, Hashable {
    /// The owner's backend (a secret key that may write): any customer may be merged.
    case owner
    /// The app (a public key, which anyone holding a copy of the app has; or a read key, which may write no more
    /// than the app). It speaks for the app, not for a customer: it may merge a customer with no evidence and no
    /// attribute the owner's backend set, or the SDK's anonymous id when that id is its own customer (a random id
    /// only its device knows: logging in after buying anonymously). An id that already belongs to another customer
    /// is that customer, judged as such.
    case app

    /// What the SDK's anonymous ids start with.
    public static let anonymousPrefix = "$anonymous:"

    /// Whether `id` is an anonymous id in the SDK's form: `$anonymous:` and a UUID, nothing else.
    public static func isAnonymousID(_ id: String) -> Bool {
        guard id.hasPrefix(anonymousPrefix) else { return false }
        let rest = id.dropFirst(anonymousPrefix.count)
        return rest.utf8.count == 36 && UUID(uuidString: String(rest)) != nil
    }

    /// Whether this authority may merge the customer that `requested` resolves to into another.
    /// - Parameters:
    ///   - requested: The id as the request named it.
    ///   - isItsOwnCustomer: Whether `requested` is the customer's own id (not an alias of another customer).
    ///   - evidence: Everything stored about the customer it resolves to.
    ///   - holdsServerSetAttributes: Whether the owner's backend set an attribute on that customer (a merge would
    ///     carry the backend's word about one customer to another).
    public func permits(
        merging requested: String, isItsOwnCustomer: Bool, evidence: EvidenceSet, holdsServerSetAttributes: Bool
    ) -> Bool {
        switch self {
        case .owner: true
        case .app:
            (evidence.isEmpty && !holdsServerSetAttributes) || (isItsOwnCustomer && Self.isAnonymousID(requested))
        }
    }

    /// Whether the merge's rule reads the customer's attributes (only the app's merges depend on them).
    public var readsAttributes: Bool { self == .app }
}
