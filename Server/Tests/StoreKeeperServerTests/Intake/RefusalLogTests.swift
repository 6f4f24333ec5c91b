import Foundation
import Testing

@testable import StoreKeeperServer

@Suite("The refusal log keeps the newest refusals of this process, bounded, per app")
struct RefusalLogTests {
    static func refusal(_ bundleID: String, _ n: Int) -> RefusedNotification {
        RefusedNotification(
            claimedBundleID: bundleID, code: "code\(n)", reason: String(repeating: "r", count: 400),
            bodyDigest: "d\(n)", receivedAt: Date(timeIntervalSince1970: Double(n)))
    }

    @Test("the newest come first, only those claiming the asked apps, at most the limit")
    func newestFirstPerApp() {
        let log = RefusalLog(capacity: 10)
        for n in 0..<6 { log.add(Self.refusal(n.isMultiple(of: 2) ? "a" : "b", n)) }
        #expect(log.recent(bundleIDs: ["a"], limit: 10).map(\.code) == ["code4", "code2", "code0"])
        #expect(log.recent(bundleIDs: ["a", "b"], limit: 2).map(\.code) == ["code5", "code4"])
        #expect(log.recent(bundleIDs: ["c"], limit: 10).isEmpty)
    }

    @Test("past its capacity the oldest are forgotten; a reason is cut to 300 characters")
    func bounded() {
        let log = RefusalLog(capacity: 3)
        for n in 0..<5 { log.add(Self.refusal("a", n)) }
        let kept = log.recent(bundleIDs: ["a"], limit: 10)
        #expect(kept.map(\.code) == ["code4", "code3", "code2"])
        #expect(kept.allSatisfy { $0.reason.count == 300 })
    }
}
