import Foundation
import StoreKeeperServer
import Testing

@Suite struct WebhookRetryScheduleTests {
    @Test("each wait varies by ±20 %, and the schedule ends after its last wait")
    func waits() {
        let schedule = WebhookRetrySchedule(delays: [10, 100])
        let now = Date(timeIntervalSince1970: 0)
        #expect(schedule.retry(afterAttempts: 1, now: now, jitter: 0) == now.addingTimeInterval(8))
        #expect(schedule.retry(afterAttempts: 1, now: now, jitter: 0.999_999)!.timeIntervalSince(now) < 12)
        #expect(schedule.retry(afterAttempts: 2, now: now, jitter: 0.5) == now.addingTimeInterval(100))
        #expect(schedule.retry(afterAttempts: 3, now: now, jitter: 0.5) == nil)
    }

    @Test("the standard schedule spends about three days")
    func standard() {
        let total = WebhookRetrySchedule.standard.delays.reduce(0, +)
        #expect((2.5 * 86_400...3.5 * 86_400).contains(total))
        #expect(WebhookRetrySchedule.problem(WebhookRetrySchedule.standard.delays) == nil)
    }

    @Test("a configured schedule names what is wrong with it")
    func problems() {
        #expect(WebhookRetrySchedule.problem([])?.contains("lists 0 waits") == true)
        #expect(WebhookRetrySchedule.problem([30, 0])?.contains("a wait is 0.0 seconds") == true)
        #expect(WebhookRetrySchedule.problem([1_000_000])?.contains("at most 604800") == true)
    }
}
