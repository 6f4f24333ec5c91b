import AppStoreModels
import AppStoreVerification
import Foundation
import StoreKeeperWire
import TestSupport
import Testing

/// Random damage to real fixtures never crashes a parser: every mutation is either valid or a typed error.
@Suite struct MutationFuzzTests {
    static let iterations = Int(ProcessInfo.processInfo.environment["STOREKEEPER_FUZZ_ITERATIONS"] ?? "") ?? 10_000

    @Test("receipts: 10,000 mutations through the full verifier")
    func receipts() async throws {
        let originals = try Fixtures.files(in: "receipts").map { Base64.decode(try Fixtures.text($0))! }
        let verifier = try AppReceiptVerifier(configuration: .init(allowsXcodeReceipts: true))
        var generator = SeededGenerator(seed: 0x5EED_0001)
        var outcomes: [String: Int] = [:]
        for iteration in 0..<Self.iterations {
            let mutated = ByteMutator.mutate(originals[iteration % originals.count], using: &generator)
            do {
                _ = try await verifier.verify(der: mutated)
                outcomes["valid", default: 0] += 1
            } catch let error as VerificationError {
                outcomes[error.code.rawValue, default: 0] += 1
            } catch {
                Issue.record("iteration \(iteration): untyped error \(type(of: error)): \(error)")
            }
        }
        #expect(outcomes.values.reduce(0, +) == Self.iterations)
        #expect(outcomes["malformed", default: 0] > 0 && outcomes["invalid_signature", default: 0] > 0)
    }

    @Test("receipt payloads: 10,000 mutations straight into the ASN.1 payload decoder")
    func receiptPayloads() throws {
        let payloads = try Fixtures.files(in: "receipts").map {
            Array(try PKCS7SignedData(bytes: Base64.decode(try Fixtures.text($0))!).content)
        }
        var generator = SeededGenerator(seed: 0x5EED_0002)
        var decoded = 0
        for iteration in 0..<Self.iterations {
            let mutated = ByteMutator.mutate(payloads[iteration % payloads.count], using: &generator)
            do {
                _ = try AppReceiptPayloadDecoder.decode(mutated[...])
                decoded += 1
            } catch is VerificationError {
            } catch {
                Issue.record("iteration \(iteration): untyped error \(error)")
            }
        }
        #expect(decoded < Self.iterations)
    }

    @Test("JWS: 10,000 mutations through both verifiers and the payload models")
    func signedData() async throws {
        let tokens = try Fixtures.files(in: "jws").map { Array(try Fixtures.text($0).utf8) }
        let apple = try AppStoreSignedDataVerifier()
        let xcode = XcodeSignedDataVerifier()
        var generator = SeededGenerator(seed: 0x5EED_0003)
        var accepted = 0
        for iteration in 0..<Self.iterations {
            let mutated = String(
                decoding: ByteMutator.mutate(tokens[iteration % tokens.count], using: &generator), as: UTF8.self)
            for verifier in [apple, xcode] as [any SignedDataVerifying] {
                do {
                    _ = try await verifier.verifyTransaction(mutated)
                    accepted += 1
                } catch is VerificationError {
                } catch {
                    Issue.record("iteration \(iteration): untyped error \(error)")
                }
            }
            // The models must also survive damaged JSON (as if a verified payload were odd).
            if let parts = Optional(mutated.split(separator: ".", omittingEmptySubsequences: false)), parts.count == 3,
                let payload = Base64.decode(parts[1])
            {
                for type in [JWSTransactionDecodedPayload.self, JWSRenewalInfoDecodedPayload.self]
                    as [any Decodable.Type]
                {
                    do { _ = try JSONDecoder().decode(type, from: Data(payload)) } catch is DecodingError {} catch {
                        Issue.record("iteration \(iteration): models threw \(error)")
                    }
                }
            }
        }
        // A mutation that happens to leave a token valid is fine (e.g. dropping base64 padding); most must fail.
        #expect(accepted < Self.iterations / 10)
    }
}
