/// Finding a customer from what a support person has in hand: an app user id or alias (exact, then by prefix),
/// an original transaction id, or the `$email` attribute. What only Apple knows (an order id, a later
/// transaction's id) the server asks Apple and maps back through ownership
/// (``RetentionStore/owner(originalTransactionKey:bundleIDs:)``).
public protocol SearchStore: Sendable {
    /// Up to `limit` customers of `project` that `text` names, best match first, each once: an app user id
    /// equal to it, an alias equal to it, an original transaction id equal to it, an `$email` attribute equal
    /// to it, then app user ids and aliases that start with it (in id order).
    func searchCustomers(_ text: String, in project: ProjectScope, limit: Int) async throws -> [CustomerMatch]
}
