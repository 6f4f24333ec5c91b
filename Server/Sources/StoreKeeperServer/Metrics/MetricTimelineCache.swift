import Foundation
import StoreKeeperStorage
import SubscriptionMetrics
import Synchronization

/// Every subscriber's ``SubscriptionTimeline``s of a project, kept between metric queries so a query reads only the
/// subscribers that changed since the last one instead of decoding the whole project's evidence again.
///
/// Fresh by the store's change feed (``SubscriberChanges``): each published change marks its subscriber to be read
/// again by the next query, which first re-reads every marked subscriber of its project. Used only while the feed
/// is live (always with SQLite; with PostgreSQL while the listener hears every server's commits); when it is
/// interrupted everything is forgotten. Queries of the cache take turns, so a query never answers from timelines
/// older than a change published before it began.
///
/// Bounded by bytes (an estimate per period): a project whose timelines would pass the budget is not kept, and its
/// queries read the whole project each time, as without the cache.
final class MetricTimelineCache: Sendable {
    struct State {
        /// Each kept project's timelines by subscriber storage key, with their estimated size.
        var projects: [String: (timelines: [String: [SubscriptionTimeline]], bytes: Int)] = [:]
        /// Storage keys changed since they were read.
        var changed: Set<String> = []
        /// Projects found too large for the budget.
        var oversized: Set<String> = []
        var live: Bool
        var heardLiveness = false
        /// Queries answered from kept timelines, queries that read the project, subscribers' timelines forgotten.
        var hits = 0
        var misses = 0
        var evictions = 0

        /// The bytes kept (estimated), of every project but `excluded`.
        func bytes(excluding excluded: String? = nil) -> Int {
            projects.reduce(0) { $0 + ($1.key == excluded ? 0 : $1.value.bytes) }
        }

        /// Forgets every kept project, counting what it held.
        mutating func forgetAll() {
            evictions += projects.values.reduce(0) { $0 + $1.timelines.count }
            projects = [:]
        }
    }

    let state: Mutex<State>
    let turns = AsyncMutex()
    /// The most bytes kept, all projects together.
    let budget: Int
    /// Past this many unread changes everything is forgotten (and read again by the next query).
    let changeMemory: Int

    /// Makes an empty cache following `changes`.
    init(changes: SubscriberChanges, budget: Int, changeMemory: Int = 200_000) {
        self.budget = budget
        self.changeMemory = changeMemory
        state = Mutex(State(live: false))
        let live = changes.observe { [weak self] event in self?.apply(event) }
        if live { state.withLock { if !$0.heardLiveness { $0.live = true } } }
    }

    func apply(_ event: SubscriberChanges.Event) {
        state.withLock { state in
            switch event {
            case .changed(let keys):
                state.changed.formUnion(keys)
                if state.changed.count > changeMemory {
                    state.forgetAll()
                    state.changed = []
                }
            case .live:
                state.live = true
                state.heardLiveness = true
            case .interrupted:
                state.live = false
                state.heardLiveness = true
                state.forgetAll()
                state.changed = []
            }
        }
    }

    /// What a kept subscriber's timelines are estimated to cost, in bytes.
    static func cost(_ key: String, _ timelines: [SubscriptionTimeline]) -> Int {
        timelines.reduce(key.utf8.count + 80) { sum, timeline in
            sum + 120 + timeline.originalTransactionID.utf8.count + timeline.periods.count * 200
                + timeline.graceEnds.count * 8
        }
    }

    /// Every subscriber's timelines in `project`, fresh as of now; `nil` when the cache cannot be trusted now (the
    /// change feed is not live) or the project is too large to keep, and the caller reads the project itself.
    /// - Parameters:
    ///   - project: The project.
    ///   - store: Where evidence is read.
    func timelines(in project: ProjectScope, store: any EvidenceStore & MetricSource) async throws
        -> [[SubscriptionTimeline]]?
    {
        try await turns.withLock {
            let prefix = project.key("")
            let (trusted, kept, marked) = state.withLock { state in
                let marked = state.changed.filter { $0.hasPrefix(prefix) }
                state.changed.subtract(marked)
                let trusted = state.live && !state.oversized.contains(project.id)
                // Many changes (an import, a burst of renewals) are cheaper to read as pages than one at a time.
                let kept = state.projects[project.id].flatMap {
                    trusted && marked.count <= max(1_000, $0.timelines.count / 10) ? $0 : nil
                }
                if kept == nil { state.misses += 1 } else { state.hits += 1 }
                return (trusted, kept, marked)
            }
            guard trusted else { return nil }
            guard var kept else { return try await build(project, store: store) }
            do {
                for key in marked {
                    kept.bytes -= kept.timelines[key].map { Self.cost(key, $0) } ?? 0
                    kept.timelines[key] = nil
                    guard let snapshot = try await store.snapshot(ProjectScope.value(ofKey: key), in: project),
                        snapshot.storageKey == key
                    else { continue }  // gone, or merged into another subscriber (itself marked)
                    let timelines = SubscriptionTimeline.timelines(try await store.fullEvidence(snapshot))
                    kept.timelines[key] = timelines
                    kept.bytes += Self.cost(key, timelines)
                }
            } catch {
                state.withLock { $0.changed.formUnion(marked) }
                throw error
            }
            let keptNow = kept
            let total = state.withLock { state in
                state.projects[project.id] = keptNow
                return state.bytes()
            }
            if total > budget { forget(project) }
            return Array(kept.timelines.values)
        }
    }

    /// Reads the whole project and keeps its timelines, unless they pass the budget.
    func build(_ project: ProjectScope, store: any EvidenceStore & MetricSource) async throws
        -> [[SubscriptionTimeline]]?
    {
        let room =
            budget
            - state.withLock { $0.bytes(excluding: project.id) }
        var timelines: [String: [SubscriptionTimeline]] = [:]
        var bytes = 0
        try await Self.scan(project, store: store) { key, built in
            timelines[key] = built
            bytes += Self.cost(key, built)
            return bytes <= room
        }
        if bytes > room {
            forget(project)
            return nil
        }
        let keptNow = (timelines, bytes)
        state.withLock { state in if state.live { state.projects[project.id] = keptNow } }
        return Array(timelines.values)
    }

    /// Reads every subscriber of `project` a page at a time and hands `visit` each one's timelines, until `visit`
    /// answers `false` (at the end of that page).
    static func scan(
        _ project: ProjectScope, store: any EvidenceStore & MetricSource,
        _ visit: (String, [SubscriptionTimeline]) -> Bool
    ) async throws {
        var after: String?
        while true {
            try Task.checkCancellation()
            let page = try await store.evidencePage(in: project, after: after, limit: MetricService.pageSize)
            var going = true
            for entry in page {
                going = visit(entry.storageKey, SubscriptionTimeline.timelines(entry.evidence)) && going
            }
            guard going, page.count == MetricService.pageSize, let last = page.last else { return }
            after = last.storageKey
        }
    }

    /// Stops keeping a project: it is read whole by each query from now on.
    func forget(_ project: ProjectScope) {
        state.withLock { state in
            state.evictions += state.projects[project.id]?.timelines.count ?? 0
            state.projects[project.id] = nil
            state.oversized.insert(project.id)
        }
    }

    /// Whether `project` was found too large to keep.
    func isOversized(_ project: ProjectScope) -> Bool { state.withLock { $0.oversized.contains(project.id) } }

    /// Its size and use so far, for `/metrics`: entries are subscribers whose timelines are kept, a lookup is a
    /// query (a hit when kept timelines answered it, a miss when the project was read), an eviction a subscriber's
    /// timelines forgotten (the budget, too many unheard changes, an interrupted change feed).
    var usage: CacheUsage {
        state.withLock { state in
            CacheUsage(
                bytes: state.bytes(), budget: budget,
                entries: state.projects.values.reduce(0) { $0 + $1.timelines.count }, hits: state.hits,
                misses: state.misses, evictions: state.evictions)
        }
    }
}
