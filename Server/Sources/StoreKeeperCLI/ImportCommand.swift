import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import StoreKeeperAPI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `storekeeper import FILE.csv`: brings existing customers in through a running server (`POST /v1/imports`),
/// which asks Apple about each through the same paths as everything else. Shows progress, ends with a summary,
/// and is resumable: lines imported are recorded in `FILE.csv.imported`, and a rerun skips them.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Bring existing customers in from a CSV file (backfill), through a running server.",
        discussion: """
            The file's header is app_user_id,original_transaction_id (asked of the App Store Server API: the app \
            needs API credentials) or app_user_id,receipt (a base64 app receipt). The key is a secret key of the \
            app to import into: --key, or the environment variable STOREKEEPER_SECRET_KEY (which keeps it out of \
            the process list).
            """)

    @Argument(help: "The CSV file.") var file: String
    @Option(help: "The running server.") var server = "http://127.0.0.1:8080"
    @Option(help: "A secret key of the app (default: $STOREKEEPER_SECRET_KEY).") var key: String?

    func run() async throws {
        guard let key = key ?? ProcessInfo.processInfo.environment["STOREKEEPER_SECRET_KEY"], !key.isEmpty else {
            throw ValidationError("a secret key is required: --key or STOREKEEPER_SECRET_KEY")
        }
        let text: String
        do { text = try String(contentsOfFile: file, encoding: .utf8) } catch {
            throw CommandFailure("cannot read \(file): \(FileProblem.describe(file))")
        }
        let importFile = try ImportFile(text: text, name: file)
        let ledger = URL(fileURLWithPath: file + ".imported")
        let done = Set(
            ((try? String(contentsOf: ledger, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init))
        let pending = importFile.rows.filter { !done.contains("\($0.line) \($0.digest)") }
        let skipped = importFile.rows.count - pending.count
        if !FileManager.default.fileExists(atPath: ledger.path) {
            FileManager.default.createFile(atPath: ledger.path, contents: nil)
        }
        let record = try FileHandle(forWritingTo: ledger)
        defer { try? record.close() }
        try record.seekToEnd()
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        var imported = 0
        var failures: [String] = []
        let progress = ProgressLine(label: "importing", unit: "rows", total: pending.count)
        for row in pending {
            var (problem, retryAfter) = try await send(row, kind: importFile.kind, key: key, client: client)
            // Apple busy or rate limited: wait as long as the server says (Apple's Retry-After) and send the row
            // again, so a backfill larger than Apple's hourly budget finishes instead of failing rows.
            var waited = 0
            while problem != nil, let wait = retryAfter, waited + wait <= Self.longestWait {
                progress.note("waiting \(wait) s: \(problem ?? "")")
                try await Task.sleep(for: .seconds(wait))
                waited += wait
                (problem, retryAfter) = try await send(row, kind: importFile.kind, key: key, client: client)
            }
            switch problem {
            case nil:
                imported += 1
                try record.write(contentsOf: Data("\(row.line) \(row.digest)\n".utf8))
            case let problem?:
                failures.append("  line \(row.line) (app_user_id \"\(row.appUserID.prefix(60))\"): \(problem)")
            }
            progress.advance()
        }
        progress.finish()
        try await client.shutdown()
        var summary =
            "imported \(imported) of \(importFile.rows.count) rows; \(skipped) already imported; \(failures.count) failed"
        if !failures.isEmpty {
            summary += " (a rerun tries them again):\n" + failures.joined(separator: "\n")
        }
        FileHandleOutput.standardOutput(summary)
        if !failures.isEmpty { throw ExitCode(1) }
    }

    /// How long one row may wait for Apple in all (its rate limit's windows are up to an hour).
    static let longestWait = 3_900

    /// Posts one row.
    /// - Returns: `nil` when imported, otherwise what went wrong (the server's code and message) and, when the same
    ///   row may succeed later, after how many seconds (the server's `Retry-After` on a 429 or 503).
    func send(_ row: ImportFile.Row, kind: ImportFile.Kind, key: String, client: HTTPClient) async throws -> (
        String?, Int?
    ) {
        let body = ImportPost(
            appUserID: row.appUserID, originalTransactionID: kind == .originalTransactionID ? row.value : nil,
            receipt: kind == .receipt ? row.value : nil)
        var request = HTTPClientRequest(url: server + APIPath.imports)
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(key)")
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: try APICoding.encoder().encode(body)))
        let response: HTTPClientResponse
        do {
            response = try await client.execute(request, timeout: .seconds(60))
        } catch {
            return ("the server at \(server) did not answer: \(error)", nil)
        }
        let data = Data(buffer: try await response.body.collect(upTo: 16 << 20))
        guard response.status.code != 200 else { return (nil, nil) }
        let retryAfter =
            [429, 503].contains(response.status.code)
            ? response.headers.first(name: "Retry-After").flatMap { Int($0) }.map { min(max($0, 1), 3_600) } : nil
        if let error = try? APICoding.decoder().decode(ErrorBody.self, from: data) {
            return ("\(error.error.code): \(error.error.message)", retryAfter)
        }
        return ("HTTP \(response.status.code)", retryAfter)
    }
}
