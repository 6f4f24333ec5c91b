import StoreKeeperStorage
import TestSupport
import Testing

/// A byte-budgeted cache forgets the least recently used entries, one at a time, and never more than it must.
@Suite struct LRUCacheTests {
    @Test("past the budget the least recently used entry goes first; a read makes an entry recent")
    func order() {
        var cache = LRUCache<String, Int>(budget: 30)
        cache.set(1, for: "a", cost: 10)
        cache.set(2, for: "b", cost: 10)
        cache.set(3, for: "c", cost: 10)
        #expect(cache.value(for: "a") == 1)  // a is now the most recent; b the least
        cache.set(4, for: "d", cost: 10)
        #expect(cache.value(for: "b") == nil)
        #expect(cache.value(for: "a") == 1 && cache.value(for: "c") == 3 && cache.value(for: "d") == 4)
        #expect(cache.bytes == 30 && cache.count == 3 && cache.statistics.evictions == 1)
        // A large entry evicts as many as it needs, oldest first, and no more.
        cache.set(5, for: "e", cost: 20)
        #expect(cache.count == 2 && cache.bytes == 30)
        #expect(cache.value(for: "d") == 4 && cache.value(for: "e") == 5)
    }

    @Test("replacing an entry replaces its cost; one larger than the whole budget is not kept and evicts nothing")
    func replaceAndOversize() {
        var cache = LRUCache<String, String>(budget: 100)
        cache.set("x", for: "k", cost: 60)
        cache.set("y", for: "k", cost: 20)
        #expect(cache.bytes == 20 && cache.count == 1 && cache.value(for: "k") == "y")
        cache.set("big", for: "other", cost: 101)
        #expect(cache.value(for: "other") == nil && cache.value(for: "k") == "y" && cache.bytes == 20)
        cache.update("k") { $0 += "!" }
        cache.update("absent") { $0 = "never" }
        #expect(cache.value(for: "k") == "y!" && cache.bytes == 20 && cache.value(for: "absent") == nil)
        cache.remove("k")
        #expect(cache.count == 0 && cache.bytes == 0)
        #expect(cache.statistics.hits == 3 && cache.statistics.misses == 2)
    }

    @Test("random operations agree with a plain list model, and stay within the budget", arguments: [1, 2, 3])
    func model(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        var cache = LRUCache<Int, Int>(budget: 500)
        var model: [(key: Int, value: Int, cost: Int)] = []  // most recent last
        for step in 0..<5_000 {
            let key = Int.random(in: 0..<60, using: &generator)
            if Bool.random(using: &generator) {
                let cost = Int.random(in: 1...120, using: &generator)
                cache.set(step, for: key, cost: cost)
                model.removeAll { $0.key == key }
                model.append((key, step, cost))
                while model.reduce(0, { $0 + $1.cost }) > 500 { model.removeFirst() }
            } else {
                let expected = model.first { $0.key == key }
                #expect(cache.value(for: key) == expected?.value)
                if let expected {
                    model.removeAll { $0.key == key }
                    model.append(expected)
                }
            }
            #expect(cache.bytes <= 500 && cache.count == model.count)
        }
    }

    @Test("decoded evidence is kept within its byte budget, the most recently used subscribers first")
    func evidenceCache() throws {
        let json = #"{"renewals":[],"transactions":[]}"#
        let cache = EvidenceCache(budget: (json.utf8.count * 3 + 8) * 4)
        for index in 0..<4 { _ = try cache.evidence(json, for: "user-\(index)") }
        _ = try cache.evidence(json, for: "user-0")  // a hit: user-0 is the most recent now
        _ = try cache.evidence(json, for: "user-4")  // evicts user-1, the least recently used
        let usage = cache.usage
        #expect(usage.entries == 4 && usage.evictions == 1 && usage.hits == 1 && usage.bytes <= usage.budget)
        _ = try cache.evidence(json, for: "user-0")
        #expect(cache.usage.hits == 2)
        _ = try cache.evidence(json, for: "user-1")
        #expect(cache.usage.hits == 2 && cache.usage.misses == 6)
    }
}
