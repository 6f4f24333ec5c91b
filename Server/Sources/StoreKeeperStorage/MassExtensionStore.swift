/// Support's requests to extend every active subscriber of a product (Apple's mass extension), kept so their status
/// can be asked of Apple later: Apple's status call needs the product and the request's id, and a project reads
/// only its own requests.
public protocol MassExtensionStore: Sendable {
    /// Keeps `request` (after Apple accepted it).
    func recordMassExtension(_ request: MassExtensionRecord) async throws

    /// `project`'s request `id`, or `nil`.
    func massExtension(_ id: String, in project: ProjectScope) async throws -> MassExtensionRecord?
}
