import Foundation
import StoreKeeperAPI
import Testing

@testable import StoreKeeperKit

/// The offerings plumbing that needs no server: a bounded wait answers in time whatever the work does, the app's
/// description becomes headers, and a device's saved state from before offerings still loads.
@Suite struct OfferingsSpecs {
    @Test("a bounded wait: the value when the work is quicker, nil when the bound passes first, the work's error")
    func boundedWait() async throws {
        let quick = Task<Int, any Error> { 7 }
        #expect(try await BoundedWait.value(of: quick, within: 5) == 7)
        let slow = Task<Int, any Error> {
            try await Task.sleep(nanoseconds: 5_000_000_000)
            return 1
        }
        let asked = Date()
        #expect(try await BoundedWait.value(of: slow, within: 0.2) == nil)
        #expect(Date().timeIntervalSince(asked) < 2)
        slow.cancel()
        let failing = Task<Int, any Error> { throw StoreKeeperError(.offline, "down") }
        await #expect(throws: StoreKeeperError(.offline, "")) { try await BoundedWait.value(of: failing, within: 5) }
    }

    @Test("work that ends well within the bound is never reported as timed out, whoever wins the race to answer")
    func boundedWaitNeverLosesAFinishedValue() async throws {
        // Many waits at once on a busy pool: each piece of work ends at once (a value, or an error) and the bound
        // is a minute away, so every answer is the work's.
        let answers = try await withThrowingTaskGroup(of: Int?.self) { group in
            for index in 0..<2_000 {
                group.addTask {
                    let work = Task<Int, any Error> {
                        if index % 2 == 1 { throw StoreKeeperError(.offline, "down") }
                        return index
                    }
                    do { return try await BoundedWait.value(of: work, within: 60) ?? -1 } catch { return nil }
                }
            }
            var all: [Int?] = []
            for try await answer in group { all.append(answer) }
            return all
        }
        #expect(answers.count == 2_000)
        let timedOut = answers.filter { $0 == -1 }.count
        #expect(timedOut == 0, "\(timedOut) finished pieces of work were reported as timed out")
        let failed = answers.filter { $0 == nil }.count
        #expect(failed == 1_000, "\(failed) of 1,000 failing pieces of work reported their error")
    }

    @Test("what the app says about itself becomes the headers targeting reads; what it does not know is left out")
    func clientHeaders() {
        let described = ClientDescription(platform: "iOS", appVersion: "2.1", storefront: "DEU", locale: "de-DE")
        #expect(
            described.headers.map { "\($0.0): \($0.1)" } == [
                "StoreKeeper-Platform: iOS", "StoreKeeper-App-Version: 2.1", "StoreKeeper-Storefront: DEU",
                "Accept-Language: de-DE",
            ])
        #expect(ClientDescription(platform: "macOS", appVersion: nil, locale: nil).headers.count == 1)
    }

    @Test("a device's saved state from before offerings loads, with no offerings cached")
    func olderSavedState() throws {
        // What a device saved before offerings existed: no `offerings` key.
        let older = Data(#"{"appUserID":"$anonymous:x","isAnonymous":true}"#.utf8)
        let state = try PersistedState.decoded(older)
        #expect(state.appUserID == "$anonymous:x" && state.isAnonymous && state.offerings == nil)
        // And what it saves now round-trips, offerings included.
        var saved = state
        saved.offerings = OfferingsResponse(currentOfferingID: nil, offerings: [])
        #expect(try PersistedState.decoded(saved.encoded()) == saved)
    }
}
