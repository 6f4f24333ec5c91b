import AppStoreModels
import AppStoreSigning
import AppStoreVerification
import ArgumentParser
import Crypto
import Foundation
import StoreKeeperBench
import StoreKeeperCLI

/// `storekeeper-lab bench [--json] [--seconds S] [FILE…]`: a speed report like `openssl speed`.
///
/// Every figure is measured in the same run as `p256.verify` (one raw ES256 signature check over the same
/// token's signing input: the floor), so ratios survive noisy machines. Build with `-c release`.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure verification speed on given files, or on data it signs itself.",
        discussion: """
            Results: p256.verify (the floor), jws.verify (chain cached), payload.decode (its payload as a transaction, \
            as the server reads it), payload.decode.codable (the same with JSONDecoder only), jws.verify.uncached, \
            receipt.decode, receipt.verify, then the documents' figures and rollup.contribution (a customer's metric \
            rollup contribution, a month and three years old) and rollup.renewal (what a renewal's write counts, of \
            a three-year and a month-old customer; rollup.write.1m: the month-old one's with its timelines built). Give a JWS file for the JWS figures and a receipt file for the receipt figures;
            without files it signs its own token and receipt. Run a release build: swift run -c release storekeeper-lab bench.
            """
    )

    @Flag(help: "Print {\"results\": [{name, ops_per_sec, us_per_op}]}.")
    var json = false

    @Option(help: "Seconds to spend on each measurement.")
    var seconds: Double = 1.0

    @Argument(help: "JWS and receipt files (.jws / base64 receipts).")
    var files: [String] = []

    func validate() throws {
        guard seconds > 0, seconds <= 60 else { throw ValidationError("--seconds must be in (0, 60]") }
    }

    func run() async throws {
        let inputs = try BenchInputs.load(files)
        let runner = BenchRunner(seconds: seconds)
        var results: [BenchResult] = []

        let jws = try CompactJWS(inputs.token)
        let leafKey = try P256.Signing.PublicKey(derRepresentation: inputs.leafSPKI)
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: jws.signature)
        let signingInput = jws.signingInput
        results.append(
            runner.measure("p256.verify") {
                precondition(leafKey.isValidSignature(signature, for: SHA256.hash(data: signingInput)))
            })
        let cached = try AppStoreSignedDataVerifier(configuration: inputs.jwsConfiguration)
        let verified = try await cached.verify(inputs.token)
        results.append(try await runner.measureAsync("jws.verify") { _ = try await cached.verify(inputs.token) })
        results.append(
            try runner.measureThrowing("payload.decode") { _ = try verified.decode(JWSTransactionDecodedPayload.self) })
        let payloadData = Data(verified.payload)
        results.append(
            try runner.measureThrowing("payload.decode.codable") {
                _ = try JSONDecoder().decode(JWSTransactionDecodedPayload.self, from: payloadData)
            })
        let uncachedConfiguration = inputs.jwsConfiguration
        var zeroCache = uncachedConfiguration
        zeroCache.chainCacheCapacity = 0
        let uncached = try AppStoreSignedDataVerifier(configuration: zeroCache)
        results.append(
            try await runner.measureAsync("jws.verify.uncached") { _ = try await uncached.verify(inputs.token) })

        let receiptDER = inputs.receipt
        results.append(
            try runner.measureThrowing("receipt.decode") {
                let message = try PKCS7SignedData(bytes: receiptDER)
                _ = try AppReceiptPayloadDecoder.decode(message.content)
            })
        let receiptVerifier = try AppReceiptVerifier(configuration: inputs.receiptConfiguration)
        _ = try await receiptVerifier.verify(der: receiptDER)
        results.append(
            try await runner.measureAsync("receipt.verify") { _ = try await receiptVerifier.verify(der: receiptDER) })

        results += try BenchDocuments.measure(with: runner)
        results += BenchRollups.measure(with: runner)

        if json {
            let objects = results.map {
                ["name": $0.name, "ops_per_sec": $0.opsPerSecond, "us_per_op": $0.microsecondsPerOp] as [String: Any]
            }
            let data = try JSONSerialization.data(
                withJSONObject: ["results": objects], options: [.sortedKeys, .prettyPrinted])
            FileHandleOutput.standardOutput(String(decoding: data, as: UTF8.self))
        } else {
            let floor = results[0].microsecondsPerOp
            FileHandleOutput.standardOutput("inputs: \(inputs.description)")
            FileHandleOutput.standardOutput(
                "name".padding(toLength: 22, withPad: " ", startingAt: 0) + "      ops/s        µs/op   × p256.verify")
            for result in results {
                FileHandleOutput.standardOutput(
                    result.name.padding(toLength: 22, withPad: " ", startingAt: 0)
                        + String(
                            format: "%11.0f  %11.2f  %10.2f", result.opsPerSecond, result.microsecondsPerOp,
                            result.microsecondsPerOp / floor))
            }
        }
    }
}
