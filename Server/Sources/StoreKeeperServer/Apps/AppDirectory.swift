import StoreKeeperAPI
import StoreKeeperStorage

/// The apps this server serves, by bundle id: the one place a caller's bundle id becomes its app and project.
struct AppDirectory: Sendable {
    /// Every configured app, by bundle id.
    let byBundleID: [String: AppRuntime]

    /// The apps `byBundleID` holds.
    init(_ byBundleID: [String: AppRuntime]) { self.byBundleID = byBundleID }

    /// The app of `bundleID`, if it is configured.
    subscript(bundleID: String) -> AppRuntime? { byBundleID[bundleID] }

    /// The app of `bundleID`; an app not configured here is refused with `unknown_app`, naming it.
    func app(_ bundleID: String) throws(ServiceError) -> AppRuntime {
        guard let app = byBundleID[bundleID] else {
            throw ServiceError(.unknownApp, .unknownApp, "no app \(bundleID) is configured")
        }
        return app
    }

    /// The project of a configured app: the boundary no read or write crosses.
    func project(_ bundleID: String) throws(ServiceError) -> ProjectScope { try app(bundleID).project }

    /// Every project served, each once, in id order.
    var projects: [ProjectScope] { Set(byBundleID.values.map(\.project)).sorted { $0.id < $1.id } }

    /// The bundle ids of `project`'s apps, sorted.
    func bundleIDs(in project: ProjectScope) -> [String] {
        byBundleID.values.filter { $0.project == project }.map(\.configuration.bundleID).sorted()
    }
}
