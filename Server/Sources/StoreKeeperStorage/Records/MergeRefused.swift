/// A merge the caller's ``MergeAuthority`` does not allow: the id resolves to a customer with evidence (purchases
/// or grants) or attributes the owner's backend set, which only the backend may move. Nothing was written.
public struct MergeRefused: Error, Hashable, Sendable {
    /// The id the request asked to merge, as it named it.
    public var appUserID: String
    /// Whether that id is an alias of another customer (whose evidence it stands for).
    public var isAlias: Bool

    /// Makes the error.
    public init(appUserID: String, isAlias: Bool) {
        self.appUserID = appUserID
        self.isAlias = isAlias
    }
}
