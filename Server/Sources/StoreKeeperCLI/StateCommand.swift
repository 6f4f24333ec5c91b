import AppStoreModels
import ArgumentParser
import EvidenceInspection
import Foundation
import SubscriptionEngine

/// `storekeeper state [--json] [--at ISO8601] [--known-at ISO8601] [--config FILE] [--allow-xcode] [--root DER]… FILE…`
struct StateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "state",
        abstract: "Print what StoreKeeper would decide for the given evidence files.",
        discussion: """
            Each file is recognised and verified as by `inspect`; a file that does not verify stops the command
            (exit 1). The output does not depend on the order of the files.
            --at T is the state at T as it happened, reconstructed from all the evidence (a response made later proves
            what was active then); --known-at K is what StoreKeeper could have known at K, from the evidence observed
            by then (an audit; the state at K unless --at says otherwise).
            --config takes JSON: {"entitlements": {"product": ["pro"]}, "subscriptionGroups": {"product": "group"},
            "nonRenewingDurations": {"product": seconds}, "consumables": ["product"]}.
            """
    )

    @Flag(
        help:
            "Print one JSON object {evaluated_at, entitlements, subscriptions, non_subscriptions, intro_eligibility}, in the API's shapes."
    )
    var json = false

    @Option(
        name: .customLong("at"),
        help: "The instant to evaluate at (ISO 8601), from all the evidence; default: now (or --known-at).")
    var at: String?

    @Option(
        name: .customLong("known-at"),
        help: "Use only the evidence observed by this instant (ISO 8601): what was known then.")
    var knownAt: String?

    @Option(help: "Engine configuration (JSON).")
    var config: String?

    @Flag(name: .customLong("allow-xcode"), help: "Accept Xcode-signed evidence.")
    var allowXcode = false

    @Option(name: .customLong("root"), help: "Also trust this DER root certificate (repeatable).")
    var roots: [String] = []

    @Argument(help: "Evidence files.")
    var files: [String]

    func validate() throws {
        for (name, value) in [("--at", at), ("--known-at", knownAt)] {
            if let value, AppleDateFormat.parse(value) == nil {
                throw ValidationError("\(name) \"\(value)\" is not an ISO 8601 date such as 2024-05-01T12:00:00Z")
            }
        }
        if files.isEmpty { throw ValidationError("give at least one evidence file") }
    }

    func run() async throws {
        var engineConfiguration = EngineConfiguration()
        if let config {
            do {
                engineConfiguration = try JSONDecoder().decode(
                    EngineConfiguration.self, from: Data(contentsOf: URL(fileURLWithPath: config)))
            } catch {
                throw ValidationError("--config \(config): \(error)")
            }
        }
        var inspection = EvidenceInspector.Configuration()
        inspection.allowsXcode = allowXcode
        for path in roots {
            guard let der = try? Data(contentsOf: URL(fileURLWithPath: path)) else {
                throw CommandFailure("cannot read --root \(path): \(FileProblem.describe(path))")
            }
            inspection.additionalRoots.append(Array(der))
        }
        let inspector = try EvidenceInspector(configuration: inspection)
        var evidence = EvidenceSet()
        for file in files {
            guard let data = try? Data(contentsOf: URL(fileURLWithPath: file)) else {
                throw CommandFailure("cannot read \(file): \(FileProblem.describe(file))")
            }
            let report = await inspector.inspect(Array(data))
            guard report.valid, let verified = report.evidence else {
                let reason = report.error.map { "\($0.code): \($0.message)" } ?? "no usable evidence"
                FileHandleOutput.standardError(
                    "storekeeper state: \(file) (\(report.kind.rawValue)) is not valid: \(reason)")
                throw ExitCode(1)
            }
            evidence.add(verified)
        }
        let known = knownAt.flatMap(AppleDateFormat.parse)
        let now = at.flatMap(AppleDateFormat.parse) ?? known ?? Date()
        let state = SubscriptionEngine(configuration: engineConfiguration).evaluate(evidence, at: now, knownAt: known)
        if json {
            FileHandleOutput.standardOutput(try StateDocument(state, knownAt: known).json())
        } else {
            FileHandleOutput.standardOutput(Self.summary(state, knownAt: known))
        }
    }

    static func summary(_ state: CustomerState, knownAt: Date? = nil) -> String {
        let view =
            knownAt.map { "as known at \(AppleDateFormat.rfc3339($0))" } ?? "as it happened, from all the evidence"
        var lines = ["at \(AppleDateFormat.rfc3339(state.evaluatedAt)) (\(view))"]
        for subscription in state.subscriptions {
            lines.append(
                "subscription \(subscription.originalTransactionID) \(subscription.productID): \(subscription.status.rawValue)"
                    + (subscription.expiresAt.map { " until \(AppleDateFormat.rfc3339($0))" } ?? ""))
            lines += subscription.explanation.map { "  - \($0)" }
        }
        for purchase in state.purchases {
            lines.append(
                "purchase \(purchase.transactionID) \(purchase.productID) (\(purchase.kind.rawValue)): "
                    + (purchase.grantsAccess ? "grants access" : "no access"))
        }
        lines.append(
            "entitlements: "
                + (state.entitlements.isEmpty
                    ? "none"
                    : state.entitlements.map {
                        "\($0.identifier) (\($0.productID)"
                            + ($0.expiresAt.map { " until \(AppleDateFormat.rfc3339($0))" } ?? ", forever") + ")"
                    }.joined(separator: ", ")))
        let eligibility = state.introEligibility.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.rawValue)" }
        if !eligibility.isEmpty { lines.append("intro eligibility: " + eligibility.joined(separator: ", ")) }
        return lines.joined(separator: "\n")
    }
}
