import Crypto
import Foundation
import StoreKeeperStorage
import Synchronization

/// Each project's experiment key: 32 random bytes the server makes the first time a project enrols a customer and
/// keeps in the project's settings (kind `experiment_secret`), never answered or logged. Every replica reads the
/// same key (the first one written wins), and a customer's variant depends on it (``ExperimentBucket``), so
/// nobody outside can choose a variant by choosing an id.
final class ExperimentSecrets: Sendable {
    /// The settings kind the key is kept under.
    static let kind = "experiment_secret"

    let store: any SettingStore
    let now: @Sendable () -> Date
    private let known = Mutex<[String: SymmetricKey]>([:])

    init(store: any SettingStore, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.now = now
    }

    /// The project's key: from memory, else read, else made and written (a key another replica wrote first is
    /// the one used).
    func key(_ project: ProjectScope) async throws -> SymmetricKey {
        if let key = known.withLock({ $0[project.id] }) { return key }
        if try await stored(project) == nil {
            let fresh = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0).base64EncodedString() }
            _ = try await store.saveProjectSetting(
                ProjectSetting(projectID: project.id, kind: Self.kind, name: "", body: fresh, updatedAt: now()),
                mode: .create)
        }
        guard let key = try await stored(project) else {
            throw StorageError("project \(project.id) has no experiment key after writing one")
        }
        known.withLock { $0[project.id] = key }
        return key
    }

    func stored(_ project: ProjectScope) async throws -> SymmetricKey? {
        let body = try await store.projectSettings(projectID: project.id).first { $0.kind == Self.kind }?.body
        return body.flatMap { Data(base64Encoded: $0) }.map { SymmetricKey(data: $0) }
    }
}
