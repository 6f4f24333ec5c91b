import Foundation
import TestSupport
import Testing

/// `storekeeper-lab bench`: the speed report scripts/bench-check gates on.
@Suite struct BenchCommandTests {
    @Test(
        "bench --json reports the twelve named results (shape only; speed is checked in release by scripts/bench-check)"
    )
    func benchShape() async throws {
        let result = try await CommandRunner.run(["bench", "--json", "--seconds", "0.02"], program: CommandRunner.lab)
        #expect(result.status == 0, "\(result.standardError)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let results = try #require(object["results"] as? [[String: Any]])
        #expect(
            results.compactMap { $0["name"] as? String }
                == [
                    "p256.verify", "jws.verify", "payload.decode", "payload.decode.codable", "jws.verify.uncached",
                    "receipt.decode",
                    "receipt.verify", "document.write", "document.encode", "rollup.contribution.1m",
                    "rollup.contribution.36m", "rollup.renewal.36m", "rollup.renewal.1m", "rollup.write.1m",
                ])
        #expect(results.allSatisfy { ($0["ops_per_sec"] as? Double ?? 0) > 0 && ($0["us_per_op"] as? Double ?? 0) > 0 })
    }

    @Test(
        "bench into a closed pipe with SIGPIPE ignored: exit 0, no crash",
        arguments: [
            ["bench", "--seconds", "0.05"], ["bench", "--json", "--seconds", "0.05"],
        ])
    func closedPipe(_ arguments: [String]) async throws {
        let (status, reason, stderr) = try await CommandRunner.intoClosedPipe(arguments, program: CommandRunner.lab)
        #expect(reason == .exit && status == 0, "\(stderr.prefix(300))")
        #expect(!stderr.contains("crashed") && !stderr.contains("Fatal error"), "\(stderr.prefix(300))")
    }
}
