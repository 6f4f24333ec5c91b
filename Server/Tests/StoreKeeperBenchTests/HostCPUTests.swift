import StoreKeeperBench
import Testing

/// The load report's machine context: how much CPU the host took away during a measurement.
@Suite struct HostCPUTests {
    static let before = """
        cpu  1000 5 200 3000 40 0 15 100 0 0
        cpu0 500 2 100 1500 20 0 7 50 0 0
        intr 12345
        """
    static let after = """
        cpu  1600 5 300 3100 60 0 35 400 0 0
        cpu0 800 2 150 1550 30 0 17 200 0 0
        """

    @Test("reads busy, idle and steal ticks from the cpu line")
    func parse() throws {
        let sample = try #require(HostCPU.parse(Self.before))
        #expect(sample == HostCPU(busy: 1000 + 5 + 200 + 0 + 15, idle: 3000 + 40, steal: 100))
    }

    @Test("an old kernel without a steal column reads steal as zero")
    func noSteal() throws {
        #expect(HostCPU.parse("cpu  10 0 5 100 2\n") == HostCPU(busy: 15, idle: 102, steal: 0))
    }

    @Test(
        "text without a well-formed cpu line is not a sample",
        arguments: ["", "intr 1 2 3\n", "cpu  1 2 x 4\n", "cpu  1 2\n"])
    func malformed(text: String) {
        #expect(HostCPU.parse(text) == nil)
    }

    @Test("the share between two samples: steal and idle as percent of all time")
    func share() throws {
        let before = try #require(HostCPU.parse(Self.before)), after = try #require(HostCPU.parse(Self.after))
        let share = try #require(after.share(since: before))
        // busy +720 (600 user, 100 system, 20 softirq), idle +120, steal +300: 1,140 ticks in all.
        #expect(abs(share.stealPercent - 300.0 * 100 / 1140) < 1e-9)
        #expect(abs(share.idlePercent - 120.0 * 100 / 1140) < 1e-9)
    }

    @Test("no time between the samples, or counters that went backwards, give no share")
    func noShare() throws {
        let sample = try #require(HostCPU.parse(Self.before))
        #expect(sample.share(since: sample) == nil)
        let later = try #require(HostCPU.parse(Self.after))
        #expect(sample.share(since: later) == nil)
    }
}
