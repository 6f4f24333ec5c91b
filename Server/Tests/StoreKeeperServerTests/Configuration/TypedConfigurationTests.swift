import Foundation
import TestSupport
import Testing

@testable import StoreKeeperServer

/// The configuration is typed per concern (`apple`, `polling`, `webhookDelivery`, `metrics`, `simulator`) while
/// the file keeps its flat keys: an existing file reads the same, and a mode is one of its names or refused.
@Suite struct TypedConfigurationTests {
    @Test("every flat key of the file lands in its concern's settings")
    func flatKeysLandInTheirConcern() throws {
        let configuration = try ServerConfigurationTests.decode(
            #"""
            {"receiptValidation": "local", "appleDeadlineSeconds": 7, "serverAPIBaseURL": "http://127.0.0.1:9",
             "pollDelaySeconds": 60, "pollRequestsPerSecond": 3, "reconcileSeconds": 900,
             "webhookRetrySeconds": [5, 50], "webhookTimeoutSeconds": 20, "webhookTestsPerMinute": 4,
             "metricsToken": "0123456789abcdef0123456789abcdef", "reportingCurrency": "EUR", "exchangeRates": {"USD": 0.9},
             "simulator": true, "simulatorEnvironment": "Production", "simulatorClock": "manual", "simulatorRate": "1h",
             "leaseSeconds": 30}
            """#)
        #expect(configuration.apple.receiptValidation == .local && configuration.apple.deadlineSeconds == 7)
        #expect(configuration.apple.serverAPIBaseURL == "http://127.0.0.1:9")
        #expect(configuration.polling.schedule.afterExpiry == 60 && configuration.polling.requestsPerSecond == 3)
        #expect(configuration.polling.reconcileSeconds == 900)
        #expect(
            configuration.webhookDelivery.retrySeconds == [5, 50] && configuration.webhookDelivery.testsPerMinute == 4)
        #expect(configuration.webhookRequestTimeoutSeconds == 15, "at most half the lease")
        #expect(configuration.metrics.reporting?.rate(for: "USD") == 0.9 && configuration.metrics.token?.count == 32)
        #expect(configuration.simulator.enabled == true && configuration.simulator.environment == .production)
        #expect(configuration.simulator.clock == .manual && configuration.simulator.rate == .hour)
        try configuration.validate()
    }

    @Test(
        "a mode the server does not know is refused in the file, naming the key, the value and the choices",
        arguments: [
            ("receiptValidation", "remote", "it must be apple or local"),
            ("simulatorClock", "lunar", "it must be system or manual"),
            ("simulatorRate", "2m", "it must be 3m, 5m, 15m, 30m, 1h or real"),
            ("simulatorEnvironment", "sandbox", "it must be Sandbox or Production"),
        ])
    func unknownModeRefused(key: String, value: String, choices: String) throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("mode-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try #"{"\#(key)": "\#(value)"}"#.write(to: file, atomically: true, encoding: .utf8)
        let error = #expect(throws: ConfigurationError.self) {
            try ServerConfiguration.load(path: file.path, environment: [:])
        }
        #expect(error?.reason == "configuration \(file.path): \(key) is \"\(value)\"; \(choices)")
    }

    @Test("every rule is checked by its concern: a bad value in each is refused by validate, naming its key")
    func eachConcernChecks() throws {
        var apple = ServerConfiguration()
        apple.apple.deadlineSeconds = 0
        var polling = ServerConfiguration()
        polling.polling.requestsPerSecond = 0
        var delivery = ServerConfiguration()
        delivery.webhookDelivery.testsPerMinute = 0
        var metrics = ServerConfiguration()
        metrics.metrics.token = "short"
        for (configuration, key) in [
            (apple, "appleDeadlineSeconds"), (polling, "pollRequestsPerSecond"),
            (delivery, "webhookTestsPerMinute"), (metrics, "metricsToken"),
        ] {
            let error = #expect(throws: ConfigurationError.self) { try configuration.validate() }
            #expect(error?.reason.hasPrefix(key) == true, "\(error?.reason ?? "")")
        }
    }
}
