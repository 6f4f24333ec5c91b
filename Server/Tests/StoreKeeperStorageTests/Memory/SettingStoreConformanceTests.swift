import Foundation
import StoreKeeperStorage
import Synchronization
import TestDatabaseSupport
import Testing

/// Every ``SettingStore`` behaves alike: the SQL store on SQLite and PostgreSQL, and the in-memory one that
/// services' specs run on without a database.
@Suite struct SettingStoreConformanceTests {
    static let kinds = ["memory"] + TestDatabases.backends

    /// A fresh settings store of `kind`, and what closes it (`nil` when PostgreSQL is not configured here).
    static func settings(_ kind: String) async throws -> (any SettingStore, @Sendable () async throws -> Void)? {
        if kind == "memory" { return (MemorySettingStore(), {}) }
        guard let store = try await StoreConformanceTests.store(kind) else { return nil }
        return (store.settings, { try await store.close() })
    }

    static func setting(_ project: String, _ kind: String, _ name: String, _ body: String) -> ProjectSetting {
        ProjectSetting(
            projectID: project, kind: kind, name: name, body: body,
            updatedAt: Date(timeIntervalSince1970: 1_800_000_000))
    }

    @Test(
        "create, replace and upsert write only as their mode allows; reads are by kind then name; deletes once",
        arguments: kinds)
    func writeModes(_ kind: String) async throws {
        guard let (store, close) = try await Self.settings(kind) else { return }
        let published = Mutex<[String]>([])
        _ = store.settingChanges.observe { event in
            if case .changed(let projects) = event { published.withLock { $0 += projects } }
        }
        #expect(try await store.saveProjectSetting(Self.setting("p", "offering", "b", "1"), mode: .create))
        #expect(try await !store.saveProjectSetting(Self.setting("p", "offering", "b", "2"), mode: .create))
        #expect(try await !store.saveProjectSetting(Self.setting("p", "offering", "a", "3"), mode: .replace))
        #expect(try await store.saveProjectSetting(Self.setting("p", "current", "", "4"), mode: .upsert))
        #expect(try await store.saveProjectSetting(Self.setting("p", "offering", "b", "5"), mode: .replace))
        #expect(try await store.saveProjectSetting(Self.setting("q", "offering", "a", "6"), mode: .upsert))
        let read = try await store.projectSettings(projectID: "p")
        #expect(read.map { "\($0.kind)/\($0.name)=\($0.body)" } == ["current/=4", "offering/b=5"], "\(kind)")
        #expect(read.first?.updatedAt == Date(timeIntervalSince1970: 1_800_000_000), "\(kind)")
        #expect(try await store.deleteProjectSetting(projectID: "p", kind: "offering", name: "b"))
        #expect(try await !store.deleteProjectSetting(projectID: "p", kind: "offering", name: "b"))
        #expect(try await store.projectSettings(projectID: "p").map(\.kind) == ["current"], "\(kind)")
        #expect(try await store.projectSettings(projectID: "q").map(\.body) == ["6"], "\(kind)")
        // A change is published for every write that changed something, never for one refused: in order and once
        // each where this process hears only itself; PostgreSQL's notifications (other processes' commits, and
        // this one's again) arrive beside those, later.
        let heard = published.withLock { $0 }
        #expect(Set(heard) == ["p", "q"], "\(kind)")
        if kind != "postgres" { #expect(heard == ["p", "p", "p", "q", "p"], "\(kind)") }
        try await close()
    }
}
