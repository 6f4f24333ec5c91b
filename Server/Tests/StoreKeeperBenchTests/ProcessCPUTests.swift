import Foundation
import StoreKeeperBench
import Testing

/// A benchmark charges a server process for the CPU it used, read from Linux's per-thread `schedstat`.
@Suite struct ProcessCPUTests {
    @Test("the first schedstat field is the on-CPU time in nanoseconds")
    func parse() {
        #expect(ProcessCPU.parse("123456789 555 7\n") == 123_456_789)
        #expect(ProcessCPU.parse("x 1 2") == nil)
        #expect(ProcessCPU.parse("") == nil)
    }

    @Test("this process's CPU time grows while it works, and a process that is gone has none")
    func readsAProcess() throws {
        let me = ProcessCPU(pid: getpid())
        let before = try #require(me.nanoseconds())
        // Spins until the reading has grown by 10 ms of CPU (at most 20 s): on a loaded machine 50 ms of wall time
        // may hold little CPU, and the other threads of the test process that end meanwhile take their time out of
        // the sum, so a fixed spin could read less than before without the reading being wrong.
        var x: UInt64 = 1
        var after = before
        let started = Date()
        while after <= before + 10_000_000, Date().timeIntervalSince(started) < 20 {
            let chunk = Date()
            while Date().timeIntervalSince(chunk) < 0.01 { x = x &* 6_364_136_223_846_793_005 &+ 1 }
            after = try #require(me.nanoseconds())
        }
        #expect(x != 0)
        #expect(after > before + 10_000_000, "spinning counts CPU time: \(before) ns, then \(after) ns")
        #expect(ProcessCPU(pid: Int32.max).nanoseconds() == nil)
    }

    @Test("this process's resident memory is read, a process that is gone has none")
    func residentMemory() throws {
        let bytes = try #require(ProcessCPU(pid: getpid()).residentBytes())
        #expect(bytes > 1 << 20)
        #expect(ProcessCPU(pid: Int32.max).residentBytes() == nil)
    }
}
