import Foundation
import Testing

@testable import StoreKeeperServer

/// Each of Apple's real-time requests is admitted once, and only while its `signedDate` is near the server's clock.
@Suite struct RetentionReplayGuardTests {
    let now = Date(timeIntervalSince1970: 1_790_000_000)
    var signed: Int64 { Int64(now.timeIntervalSince1970 * 1000) }

    @Test("a request is admitted once; its identifier again is a replay")
    func once() throws {
        let replays = RetentionReplayGuard()
        try replays.admit("a", signedDate: signed, now: now)
        #expect(throws: RetentionReplayGuard.Refusal.replayed) { try replays.admit("a", signedDate: signed, now: now) }
        try replays.admit("b", signedDate: signed, now: now)
    }

    @Test("signed more than 300 s before or after the server's clock, or undated: stale, and not remembered")
    func stale() throws {
        let replays = RetentionReplayGuard()
        for offset: Int64 in [-300_001, 300_001] {
            #expect(throws: RetentionReplayGuard.Refusal.stale(signedDate: signed + offset)) {
                try replays.admit("late", signedDate: signed + offset, now: now)
            }
        }
        #expect(throws: RetentionReplayGuard.Refusal.stale(signedDate: nil)) {
            try replays.admit("late", signedDate: nil, now: now)
        }
        try replays.admit("late", signedDate: signed - 300_000, now: now)
    }

    @Test("identifiers are forgotten after ten minutes, and the oldest first past the capacity")
    func bounded() throws {
        let replays = RetentionReplayGuard(capacity: 3)
        for name in ["a", "b", "c", "d"] { try replays.admit(name, signedDate: signed, now: now) }
        // "a" was forgotten to make room; "b" to "d" are still remembered.
        try replays.admit("a", signedDate: signed, now: now)
        for name in ["c", "d"] {
            #expect(throws: RetentionReplayGuard.Refusal.replayed) {
                try replays.admit(name, signedDate: signed, now: now)
            }
        }
        let later = now.addingTimeInterval(601)
        let laterSigned = Int64(later.timeIntervalSince1970 * 1000)
        try replays.admit("d", signedDate: laterSigned, now: later)
    }
}
