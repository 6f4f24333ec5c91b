import Foundation
import Logging
import StoreKeeperStorage
import TestDatabaseSupport
import TestSupport
import Testing

@testable import StoreKeeperServer

/// The configuration file: the shipped example loads and validates; projects, keys and limits are checked
/// before the server starts, each error naming what is wrong.
@Suite struct ServerConfigurationTests {
    static func decode(_ json: String) throws -> ServerConfiguration {
        try JSONDecoder().decode(ServerConfiguration.self, from: Data(json.utf8))
    }

    @Test("examples/server-config.json loads, validates, and groups its two apps into one project")
    func example() throws {
        let path = Fixtures.repositoryRoot.appendingPathComponent("examples/server-config.json").path
        let configuration = try ServerConfiguration.load(path: path, environment: [:])
        try configuration.validate()
        let scopes = try configuration.projectScopes()
        #expect(scopes["com.example.app"]?.id == "example" && scopes["com.example.app.mac"]?.id == "example")
        #expect(configuration.limits.headerTimeoutSeconds == 10 && configuration.limits.maximumConnections == 4_096)
        #expect(configuration.apple.deadlineSeconds == 10)
        #expect(configuration.apps[1].extraRootPaths.isEmpty)
        #expect(
            configuration.metrics.reporting?.rate(for: "EUR") == 1.08
                && configuration.metrics.reporting?.rate(for: "USD") == 1)
    }

    @Test(
        "a reporting currency that is not a code, a rate that is not positive, or rates without a currency are refused")
    func reportingCurrency() throws {
        var configuration = ServerConfiguration()
        configuration.metrics.reportingCurrency = "dollars"
        #expect(throws: ConfigurationError.self) { try configuration.validate() }
        configuration.metrics.reportingCurrency = "USD"
        configuration.metrics.exchangeRates = ["EUR": -1]
        #expect(throws: ConfigurationError("exchangeRates.EUR is -1.0; it must be a positive number")) {
            try configuration.validate()
        }
        configuration.metrics.reportingCurrency = nil
        configuration.metrics.exchangeRates = ["EUR": 1.08]
        #expect(throws: ConfigurationError.self) { try configuration.validate() }
    }

    @Test("cacheMegabytes 0 turns the caches off; a negative budget is refused, naming the key and the value")
    func cacheBudgetBounds() throws {
        var configuration = ServerConfiguration()
        configuration.cacheMegabytes = 0
        try configuration.validate()
        #expect(CacheBudget(megabytes: 0).answers == 0 && CacheBudget(megabytes: 0).evidence == 0)
        configuration.cacheMegabytes = -1
        #expect(throws: ConfigurationError("cacheMegabytes is -1; it must be from 0 (no caches) to 1048576")) {
            try configuration.validate()
        }
    }

    @Test("rawEvidenceRetentionDays keeps evidence for good at 0 (the default); a negative value is refused")
    func retentionBounds() async throws {
        var configuration = ServerConfiguration()
        #expect(configuration.rawEvidenceRetentionDays == 0)
        configuration.rawEvidenceRetentionDays = 90
        try configuration.validate()
        configuration.rawEvidenceRetentionDays = -1
        #expect(
            throws: ConfigurationError("rawEvidenceRetentionDays is -1; it must be from 0 (keep for good) to 36500")
        ) { try configuration.validate() }
        let store = try #require(try await TestDatabases.makeStore("sqlite"))
        let worker = RawEvidenceRetention(store: store, days: 90, logger: Logger(label: "test"))
        #expect(
            worker.cutoff(at: Date(timeIntervalSince1970: 100 * 86_400)) == Date(timeIntervalSince1970: 10 * 86_400))
        try await store.close()
    }

    @Test("examples/server-config.json shows every key the server reads")
    func exampleShowsEveryKey() throws {
        let path = Fixtures.repositoryRoot.appendingPathComponent("examples/server-config.json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: path)) as? [String: Any])
        #expect(Set(object.keys) == ConfigurationFile.topLevel)
        let apps = object["apps"] as? [[String: Any]] ?? []
        #expect(Set(apps.flatMap(\.keys)) == ConfigurationFile.app)
        #expect(Set((object["limits"] as? [String: Any] ?? [:]).keys) == ConfigurationFile.limits)
        #expect(Set((object["engine"] as? [String: Any] ?? [:]).keys) == ConfigurationFile.engine)
        #expect(Set((object["projects"] as? [[String: Any]] ?? []).flatMap(\.keys)) == ConfigurationFile.project)
        #expect(Set((object["apiKeys"] as? [[String: Any]] ?? []).flatMap(\.keys)) == ConfigurationFile.apiKey)
        #expect(Set((object["webhooks"] as? [[String: Any]] ?? []).flatMap(\.keys)) == ConfigurationFile.webhook)
    }

    @Test("retention rules in the file: checked like the API's, a nested typo and an unknown app refused by name")
    func retentionRules() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rr-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let message = #"{"message":{"message_id":"6b1e5c0e-7f55-4a3c-9d1c-2a9f0e6d8a11"}}"#
        for (rules, words) in [
            (#"{"com.a":{"rules":[{"identifier":"r","when":{"sate":["active"]},"respond":\#(message)}]}}"#, "sate"),
            (#"{"com.z":{"rules":[{"identifier":"r","respond":\#(message)}]}}"#, "com.z"),
            (#"{"com.a":{"rules":[{"identifier":"r","respond":{"message":{"message_id":"x"}}}]}}"#, "not a UUID"),
        ] {
            let path = directory.appendingPathComponent("config.json")
            try #"{"apps":[{"bundleID":"com.a"}],"retentionRules":\#(rules)}"#.write(
                to: path, atomically: true, encoding: .utf8)
            do {
                try ServerConfiguration.load(path: path.path, environment: [:]).validate()
                Issue.record("\(rules) was accepted")
            } catch let error as ConfigurationError {
                #expect(error.reason.contains(words) && error.reason.contains("retentionRules"), "\(error.reason)")
            }
        }
    }

    @Test("every app is a project of its own unless a project lists it")
    func defaultProjects() throws {
        let configuration = try Self.decode(#"{"apps": [{"bundleID": "com.a"}, {"bundleID": "com.b"}]}"#)
        let scopes = try configuration.projectScopes()
        #expect(scopes["com.a"]?.id == "com.a" && scopes["com.b"]?.id == "com.b")
    }

    @Test(
        "bad projects, keys and limits are refused, naming what is wrong",
        arguments: [
            (#"{"apps": [{"bundleID": "com.a"}], "projects": [{"id": "p", "apps": ["com.z"]}]}"#, "com.z"),
            (
                #"{"apps": [{"bundleID": "com.a"}], "projects": [{"id": "p", "apps": ["com.a"]}, {"id": "q", "apps": ["com.a"]}]}"#,
                "two projects"
            ),
            (#"{"apps": [{"bundleID": "com.a"}], "projects": [{"id": "has:colon", "apps": ["com.a"]}]}"#, "has:colon"),
            (
                #"{"apps": [{"bundleID": "com.a"}, {"bundleID": "com.b"}], "projects": [{"id": "alpha", "apps": ["com.a"]}, {"id": "Alpha", "apps": ["com.b"]}]}"#,
                "differ only in case"
            ),
            (
                #"{"apps": [{"bundleID": "com.Shop"}, {"bundleID": "com.shop"}]}"#,
                "\"com.Shop\" and \"com.shop\" differ only in case"
            ),
            (
                #"{"apps": [{"bundleID": "com.a"}], "apiKeys": [{"key": "pk_short", "kind": "public", "bundleID": "com.a"}]}"#,
                "at least 32"
            ),
            (
                #"{"apps": [{"bundleID": "com.a"}], "apiKeys": [{"key": "pk_0123456789012345678901234567890123", "kind": "public", "bundleID": "com.b"}]}"#,
                "com.b"
            ),
            (#"{"limits": {"headerTimeoutSeconds": 0}}"#, "limits.headerTimeoutSeconds"),
            (#"{"limits": {"maximumConnections": 0}}"#, "limits.maximumConnections"),
            (#"{"appleDeadlineSeconds": -1}"#, "appleDeadlineSeconds"),
            (#"{"storefrontTaxRates": {"DEU": 19}}"#, "storefrontTaxRates.DEU is 19.0"),
            (#"{"leaseSeconds": 0.5}"#, "leaseSeconds is 0.5"),
            (#"{"webhookTimeoutSeconds": 0}"#, "webhookTimeoutSeconds is 0.0"),
            (#"{"webhookTimeoutSeconds": 301}"#, "webhookTimeoutSeconds is 301.0"),
            (
                #"{"apps": [{"bundleID": "com.a"}], "webhooks": [{"bundleID": "com.b", "url": "https://x.example", "secret": "0123456789012345678901234567890123"}]}"#,
                "webhooks[0]: app \"com.b\""
            ),
            (
                #"{"apps": [{"bundleID": "com.a"}], "webhooks": [{"bundleID": "com.a", "url": "ftp://x.example", "secret": "0123456789012345678901234567890123"}]}"#,
                "webhooks[0]: url must be"
            ),
            (
                #"{"apps": [{"bundleID": "com.a"}], "webhooks": [{"bundleID": "com.a", "url": "https://x.example", "secret": "pk_short"}]}"#,
                "webhooks[0]: the secret has 8 characters"
            ),
            (
                #"{"apps": [{"bundleID": "com.a"}], "webhooks": [{"bundleID": "com.a", "url": "https://x.example", "secret": "0123456789012345678901234567890123", "eventTypes": ["renewed"]}]}"#,
                "webhooks[0]: event_types has \"renewed\""
            ),
        ])
    func refused(_ json: String, _ named: String) throws {
        let configuration = try Self.decode(json)
        let error = #expect(throws: ConfigurationError.self) { try configuration.validate() }
        #expect(error?.reason.contains(named) == true, "\(error?.reason ?? "")")
        #expect(error?.reason.contains("pk_short") != true)
    }
}
