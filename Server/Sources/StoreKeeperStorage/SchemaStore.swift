/// A store's schema: the version its database is at, and bringing it to this build's.
public protocol SchemaStore: Sendable {
    /// The schema version in place (migrations applied); ``SQLStore/schemaVersion`` is the one this build needs.
    func appliedSchemaVersion() async throws -> Int

    /// Applies the migrations the database lacks, in order.
    /// - Returns: The schema version afterwards.
    @discardableResult
    func migrate() async throws -> Int
}
