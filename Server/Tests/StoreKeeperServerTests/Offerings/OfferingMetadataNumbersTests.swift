import Foundation
import TestDatabaseSupport
import TestSupport
import Testing

/// Trust round three, item 6: an offering's metadata is kept as the owner wrote it. Every number reads back as the
/// same number — a 30-digit whole number digit for digit, not through a double; one that cannot be kept (out of
/// range, flushed to 0, more than 38 significant digits) is refused with 400 naming its path and changes nothing.
/// It used to answer 500, or be stored rounded.
@Suite struct OfferingMetadataNumbersTests {
    typealias E2E = ServerEndToEndTests

    /// An offering whose metadata is `metadata`, written as raw JSON so numbers reach the server as typed.
    static func body(_ metadata: String) -> Data {
        Data(
            #"{"identifier":"numbers","packages":[{"identifier":"m","product_id":"premium.monthly"}],"metadata":\#(metadata)}"#
                .utf8)
    }

    @Test(
        "numbers nothing can keep are refused by path; every other number reads back as the same number",
        arguments: TestDatabases.backends)
    func numbers(_ backend: String) async throws {
        try await E2E.withServers(backend) { _, client, _, _ in
            let before = try await client.call(.GET, "/v1/offerings", key: E2E.secretKey).1 as NSDictionary
            for (metadata, path) in [
                (#"{"x": 1e999}"#, "metadata.x"), (#"{"x": -1e999}"#, "metadata.x"),
                (#"{"tiny": 1e-999}"#, "metadata.tiny"), (#"{"tiny": -2.5e-400}"#, "metadata.tiny"),
                (#"{"list": [1, 1.234567890123456789012345678901234567891]}"#, "metadata.list[1]"),
            ] {
                let (status, answer) = try await client.call(
                    .POST, "/v1/offerings", key: E2E.secretKey, body: Self.body(metadata))
                let error = answer["error"] as? [String: Any]
                #expect(
                    status == 400 && error?["code"] as? String == "invalid_field", "\(metadata): \(status) \(answer)")
                #expect((error?["message"] as? String)?.contains(path) == true, "\(metadata): \(answer)")
            }
            let after = try await client.call(.GET, "/v1/offerings", key: E2E.secretKey).1 as NSDictionary
            #expect(after == before, "a refused offering is not stored")

            let kept = """
                {"whole": 9007199254740993, "negative": -7, "pi": 3.14159, "huge": 1.5e300, "small": 2.5e-300, \
                "one": 1.0, "big": 123456789012345678901234567890, "long": [2.12345678901234567891], \
                "past": -18446744073709551617}
                """
            let (created, offering) = try await client.call(
                .POST, "/v1/offerings", key: E2E.secretKey, body: Self.body(kept))
            #expect(created == 201, "\(offering)")
            let (status, _, text) = try await MetricsEndToEndTests.raw(
                client.base, "/v1/offerings/numbers", key: E2E.secretKey)
            #expect(status == 200)
            // Compared as text: a whole number past 2^53 must not pass through a double.
            for exact in [
                "9007199254740993", "123456789012345678901234567890", "[2.12345678901234567891]",
                "-18446744073709551617",
            ] {
                #expect(text.contains(exact), "\(exact) in \(text)")
            }
            let metadata = try #require(
                (try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])?["metadata"]
                    as? [String: Any])
            #expect(metadata["negative"] as? Int == -7 && metadata["one"] as? Int == 1)
            #expect(metadata["pi"] as? Double == 3.14159 && metadata["huge"] as? Double == 1.5e300)
            #expect(metadata["small"] as? Double == 2.5e-300)
        }
    }
}
