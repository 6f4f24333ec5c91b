import Foundation
import StoreKeeperStorage
import Synchronization
import Testing

@testable import StoreKeeperServer

/// What a feature makes of a project's settings is made once and kept until its project's settings change: a
/// service spec on the in-memory settings store, no database.
@Suite struct ProjectSettingsCacheTests {
    static func setting(_ project: String, _ body: String) -> ProjectSetting {
        ProjectSetting(projectID: project, kind: "offering", name: "main", body: body, updatedAt: Date())
    }

    @Test("a project's value is derived once, again after its settings change, and not after another's")
    func derivedOnceUntilChanged() async throws {
        let store = MemorySettingStore()
        let derivations = Atomic<Int>(0)
        let cache = ProjectSettingsCache<[String]>(store: store) { settings in
            derivations.add(1, ordering: .relaxed)
            return settings.map(\.body)
        }
        _ = try await store.saveProjectSetting(Self.setting("p", "one"), mode: .create)
        #expect(try await cache.value(projectID: "p") == ["one"])
        #expect(try await cache.value(projectID: "p") == ["one"])
        #expect(derivations.load(ordering: .relaxed) == 1, "the second answer came from memory")
        _ = try await store.saveProjectSetting(Self.setting("q", "other"), mode: .create)
        #expect(try await cache.value(projectID: "p") == ["one"])
        #expect(derivations.load(ordering: .relaxed) == 1, "another project's change leaves p's value")
        _ = try await store.saveProjectSetting(Self.setting("p", "two"), mode: .replace)
        #expect(try await cache.value(projectID: "p") == ["two"])
        #expect(derivations.load(ordering: .relaxed) == 2)
        _ = try await store.deleteProjectSetting(projectID: "p", kind: "offering", name: "main")
        #expect(try await cache.value(projectID: "p") == [])
    }

    @Test("a derivation that throws is not remembered: the next call derives again, with nothing changed")
    func failuresAreNotKept() async throws {
        struct Broken: Error {}
        let store = MemorySettingStore()
        let failing = Atomic<Bool>(true)
        let cache = ProjectSettingsCache<String>(store: store) { settings in
            guard !failing.load(ordering: .relaxed) else { throw Broken() }
            return settings.first?.body ?? ""
        }
        _ = try await store.saveProjectSetting(Self.setting("p", "one"), mode: .create)
        await #expect(throws: Broken.self) { try await cache.value(projectID: "p") }
        failing.store(false, ordering: .relaxed)
        #expect(try await cache.value(projectID: "p") == "one")
    }
}
