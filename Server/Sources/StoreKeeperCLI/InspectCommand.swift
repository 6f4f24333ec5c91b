import AppStoreModels
import AppStoreVerification
import ArgumentParser
import EvidenceInspection
import Foundation

/// `storekeeper inspect [--json] [--allow-xcode] [--at ISO8601] [--root DER]… FILE|-`
struct InspectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Detect, verify and print a receipt, JWS, notification or verifyReceipt response.",
        discussion: """
            Exit status: 0 valid, 1 verification failed (reason on stderr), 2 usage error.
            Without --at, JWS chains are checked at their signedDate and receipts at their creation date.
            """
    )

    @Flag(help: "Print one JSON object {kind, valid, environment, payload, error}.")
    var json = false

    @Flag(name: .customLong("allow-xcode"), help: "Accept Xcode-signed JWS and Xcode (StoreKit test) receipts.")
    var allowXcode = false

    @Option(name: .customLong("at"), help: "Validate certificate chains at this ISO 8601 time instead.")
    var at: String?

    @Option(name: .customLong("root"), help: "Also trust this DER root certificate (repeatable), e.g. the simulator's.")
    var roots: [String] = []

    @Argument(help: "The file to inspect, or - for standard input.")
    var file: String

    func validate() throws {
        if let at, AppleDateFormat.parse(at) == nil {
            throw ValidationError("--at \"\(at)\" is not an ISO 8601 date such as 2024-05-01T12:00:00Z")
        }
    }

    func run() async throws {
        let input: Data
        do {
            input =
                file == "-"
                ? FileHandle.standardInput.readDataToEndOfFile() : try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            throw CommandFailure("cannot read \(file): \(FileProblem.describe(file))")
        }
        var configuration = EvidenceInspector.Configuration()
        configuration.allowsXcode = allowXcode
        configuration.validationTime = at.flatMap(AppleDateFormat.parse)
        for path in roots {
            guard let der = try? Data(contentsOf: URL(fileURLWithPath: path)) else {
                throw CommandFailure("cannot read --root \(path): \(FileProblem.describe(path))")
            }
            configuration.additionalRoots.append(Array(der))
        }
        let inspector: EvidenceInspector
        do { inspector = try EvidenceInspector(configuration: configuration) } catch {
            throw ValidationError("--root: \(error)")
        }
        let report = await inspector.inspect(Array(input))
        FileHandleOutput.standardOutput(json ? try report.jsonText() : report.summary)
        if let error = report.error, !report.valid {
            FileHandleOutput.standardError(
                "storekeeper inspect: \(report.kind.rawValue) is not valid: \(error.code): \(error.message)")
            throw ExitCode(1)
        }
    }
}
