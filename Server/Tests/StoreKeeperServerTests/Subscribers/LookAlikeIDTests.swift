import Foundation
import TestDatabaseSupport
import TestSupport
import Testing

@testable import StoreKeeperServer

/// Trust round three, item 8: an id that shows as blank or as another customer's id (white space at an edge,
/// white space other than U+0020, a line separator, an invisible character) is refused with 400
/// `invalid_app_user_id` wherever an id enters — the path, a body, an alias's target, an import — and stores
/// nothing; ordinary ids, plain spaces inside included, are kept.
@Suite struct LookAlikeIDTests {
    /// The ids the review made, and more of their kind.
    static let lookAlikes = [
        " ", "\u{3000}", "\u{115F}", "a\u{2028}b", "a\u{2029}b", "payer-0 ", " payer-0", "payer\u{A0}0",
        "pay\u{3164}er", "payer\u{FFA0}", "a\u{2800}", "payer-0\u{FE0F}", "\u{2003}",
    ]

    @Test("look-alike ids are refused, naming the field and the character", arguments: lookAlikes)
    func refused(_ id: String) {
        #expect {
            _ = try CustomerID.normalized(id, field: "new_app_user_id")
        } throws: { error in
            let error = error as? ServiceError
            return error?.code == .invalidAppUserID && error?.message.contains("new_app_user_id") == true
        }
    }

    @Test("ordinary ids are kept", arguments: ["payer-0", "John Smith", "caf\u{E9}", "用户-7", "a b c", "ß"])
    func kept(_ id: String) throws {
        #expect(try CustomerID.normalized(id) == id)
    }

    @Test(
        "over HTTP: the path, a posted transaction, an alias target and an import refuse every look-alike",
        arguments: TestDatabases.backends)
    func refusedEverywhere(_ backend: String) async throws {
        try await TenantServers.with(backend) { servers in
            let bought = try await servers.buy(TenantServers.appA, customer: "payer-0")
            let (posted, _) = try await servers.client.call(
                .POST, "/v1/transactions", key: TenantServers.publicA,
                body: servers.client.json(["app_user_id": "payer-0", "signed_transaction": bought.token]))
            #expect(posted == 200)
            let before = try await servers.store.dump()
            for id in Self.lookAlikes {
                let segment = id.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? id
                for entry in ["path", "transaction", "alias target", "import"] {
                    let (status, answer): (Int, [String: Any])
                    switch entry {
                    case "path":
                        (status, answer) = try await servers.client.call(
                            .GET, "/v1/subscribers/\(segment)", key: TenantServers.publicA)
                    case "transaction":
                        (status, answer) = try await servers.client.call(
                            .POST, "/v1/transactions", key: TenantServers.publicA,
                            body: servers.client.json(["app_user_id": id, "signed_transaction": bought.token]))
                    case "alias target":
                        (status, answer) = try await servers.client.call(
                            .POST, "/v1/subscribers/new-device/alias", key: TenantServers.publicA,
                            body: servers.client.json(["new_app_user_id": id]))
                    default:
                        (status, answer) = try await servers.client.call(
                            .POST, "/v1/imports", key: TenantServers.secretA,
                            body: servers.client.json([
                                "app_user_id": id, "original_transaction_id": bought.originalTransactionID,
                            ]))
                    }
                    let code = (answer["error"] as? [String: Any])?["code"] as? String
                    #expect(
                        status == 400 && code == "invalid_app_user_id",
                        "\(entry) with \(id.unicodeScalars.map { String($0.value, radix: 16) }): \(status) \(answer)")
                }
            }
            #expect(try await servers.store.dump() == before, "a refused id stored nothing")
        }
    }
}
