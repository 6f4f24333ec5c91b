import AppStoreSimulator
import StoreKeeperServer
import TestSupport
import Testing

/// `serve` starts the in-process simulator from the configuration's ``SimulatorSettings``: every rate a file
/// may name is a pace the simulator has, so none falls back to a default unseen.
@Suite struct SimulatorSettingsTests {
    @Test("every simulatorRate the configuration accepts is a SandboxRate, and every SandboxRate can be named")
    func ratesMatch() {
        let named = SimulatorSettings.Rate.allCases.map(\.rawValue)
        #expect(named.allSatisfy { SandboxRate(rawValue: $0) != nil }, "\(named)")
        #expect(Set(named) == Set(SandboxRate.allCases.map(\.rawValue)))
    }

    @Test("serve refuses an unknown --simulator-clock, naming the flag, the value and the choices")
    func unknownFlagRefused() async throws {
        let result = try await CommandRunner.run(["serve", "--port", "0", "--simulator-clock", "lunar"])
        #expect(result.status != 0)
        #expect(
            result.standardError.contains("--simulator-clock is \"lunar\"; it must be system or manual"),
            "\(result.standardError)")
    }
}
