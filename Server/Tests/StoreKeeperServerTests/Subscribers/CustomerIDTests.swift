import Foundation
import TestDatabaseSupport
import TestSupport
import Testing

@testable import StoreKeeperServer

/// Ids are normalised to NFC where they enter: canonically equal ids are one customer in every cache and every
/// table. Control and format characters are refused, so an id cannot write escape sequences into the text log or
/// reverse what an operator reads.
@Suite struct CustomerIDTests {
    static let composed = "caf\u{E9}"  // é as one scalar (NFC)
    static let decomposed = "cafe\u{301}"  // e and a combining acute accent (NFD)

    @Test("canonically equal ids normalise to the same bytes")
    func normalisation() throws {
        #expect(Array(Self.composed.utf8) != Array(Self.decomposed.utf8))
        #expect(Array(try CustomerID.normalized(Self.decomposed).utf8) == Array(Self.composed.utf8))
        #expect(try CustomerID.normalized(Self.composed) == Self.composed)
        #expect(try CustomerID.normalized("$anonymous:4f0c-…") == "$anonymous:4f0c-…")
    }

    @Test(
        "control and format characters, empty and over-long ids are refused, naming the field",
        arguments: [
            "", "a\u{1B}[31mred", "line\nbreak", "nul\u{0}", "rlo\u{202E}gnp.exe", "zero\u{200B}width", "bom\u{FEFF}",
            String(repeating: "x", count: 257),
        ])
    func refused(_ id: String) {
        #expect {
            _ = try CustomerID.normalized(id, field: "device_id")
        } throws: { error in
            (error as? ServiceError)?.code == .invalidDeviceID
                && (error as? ServiceError)?.message.contains("device_id") == true
        }
    }

    @Test(
        "an id that would fuse with the text beside it is refused: a mark or joiner first, a Prepend letter last",
        arguments: ["\u{301}quote", "\u{93F}spacing", "\u{FE0F}selector", "tail\u{D4E}", "tail\u{111C2}"])
    func fusing(_ id: String) {
        #expect {
            _ = try CustomerID.normalized(id)
        } throws: { error in
            (error as? ServiceError)?.code == .invalidAppUserID
                && (error as? ServiceError)?.message.contains("fuse") == true
        }
    }

    @Test("the same characters inside an id are kept: only the edges decide", arguments: ["x\u{D4E}<y", "a\u{301}\"b"])
    func fusingInside(_ id: String) throws {
        #expect(try CustomerID.normalized(id) == id.precomposedStringWithCanonicalMapping)
    }

    @Test(
        "an id posted in NFD and read in NFC (and the other way) is one customer: answer, history and deliveries agree",
        arguments: TestDatabases.backends)
    func oneCustomerOverHTTP(_ backend: String) async throws {
        try await TenantServers.with(backend) { servers in
            let bought = try await servers.buy(TenantServers.appA, customer: "cafe-customer")
            let (posted, _) = try await servers.client.call(
                .POST, "/v1/transactions", key: TenantServers.publicA,
                body: servers.client.json(["app_user_id": Self.decomposed, "signed_transaction": bought.token]))
            #expect(posted == 200)
            for form in [Self.composed, Self.decomposed] {
                let path = "/v1/subscribers/" + form.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)!
                let (_, answer) = try await servers.client.call(.GET, path, key: TenantServers.publicA)
                let subscriber = answer["subscriber"] as? [String: Any]
                #expect((subscriber?["entitlements"] as? [Any])?.count == 1, "\(form.unicodeScalars.count) scalars")
                let (_, history) = try await servers.client.call(.GET, path + "/events", key: TenantServers.secretA)
                #expect((history["events"] as? [Any])?.isEmpty == false, "events for \(form.unicodeScalars.count)")
            }
            // Stored under the NFC bytes only (compared as bytes: Swift's own comparison would call them equal).
            let dump = Data(try await servers.store.dump().utf8)
            #expect(dump.range(of: Data(Self.composed.utf8)) != nil)
            #expect(dump.range(of: Data(Self.decomposed.utf8)) == nil)
        }
    }

    @Test("an id with an escape sequence is refused over HTTP and stores nothing", arguments: TestDatabases.backends)
    func escapeRefused(_ backend: String) async throws {
        try await TenantServers.with(backend) { servers in
            let bought = try await servers.buy(TenantServers.appA, customer: "esc")
            let before = try await servers.store.dump()
            for id in ["\u{1B}[2J\u{1B}[31mroot", "admin\u{202E}nimda"] {
                let (status, answer) = try await servers.client.call(
                    .POST, "/v1/transactions", key: TenantServers.publicA,
                    body: servers.client.json(["app_user_id": id, "signed_transaction": bought.token]))
                #expect(status == 400)
                #expect((answer["error"] as? [String: Any])?["code"] as? String == "invalid_app_user_id")
            }
            #expect(try await servers.store.dump() == before)
        }
    }
}
