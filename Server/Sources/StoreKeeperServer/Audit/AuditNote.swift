import Foundation
import HTTPTypes
import StoreKeeperAPI
import StoreKeeperStorage
import StoreKeeperWire

/// The one rule for what the audit log keeps of a request: which requests are audited (every change a secret key
/// makes through a route of its own — not the app's evidence posts, which the public key makes too — and every
/// save in the dashboard), who made it (a fingerprint of the key, never the key), what it was about (a customer's
/// id hashed, so an erased customer is named nowhere) and a summary of the body (personal values hashed, long ones
/// cut, secrets never read back).
enum AuditNote {
    /// The body fields that name a customer or hold evidence: summarised by a hash or a size, never as written.
    static let personalFields: Set<String> = [
        "app_user_id", "new_app_user_id", "original_transaction_id", "transaction_id", "receipt", "signed_transaction",
        "app_account_token", "email",
    ]

    /// The header the server's own connection handler sets to the peer's address (a client's header of that name
    /// is removed first, so it cannot speak for another address).
    static let peerAddress = HTTPField.Name("StoreKeeper-Peer-Address")!

    /// The longest summary, in characters.
    static let maximumSummary = 500

    /// Whether a call of `route` is audited: a change a secret key makes through a route only a secret key may call.
    static func isAudited(_ route: APIRoute) -> Bool { route.method != .get && route.endpoint.scope != nil }

    /// The actor of a key: `key:` (or `dashboard:` for a dashboard session) and 16 hex digits of the SHA-256 of
    /// the key, as `keyHash` holds it.
    static func actor(keyHash: String, dashboard: Bool = false) -> String {
        (dashboard ? "dashboard:" : "key:") + keyHash.prefix(16)
    }

    /// A customer's id as the log names it: `customer:` and 16 hex digits of the SHA-256 of the project's key for
    /// the id — the same for the same customer, readable by nobody who does not already know the id.
    static func customer(_ id: String, in project: ProjectScope) -> String {
        "customer:" + HexDigest.sha256(project.key(id.precomposedStringWithCanonicalMapping)).prefix(16)
    }

    /// What a call of `route` with these path parameters is about: the customer hashed, the others by name.
    static func target(_ route: APIRoute, parameters: [(name: String, value: String)], in project: ProjectScope)
        -> String?
    {
        let named = parameters.map { parameter -> String in
            if parameter.name == APIParameter.appUserID.name {
                return customer(parameter.value, in: project)
            }
            return parameter.name + "=" + shortened(parameter.value, to: 100)
        }
        return named.isEmpty ? nil : named.joined(separator: " ")
    }

    /// The body in brief: a JSON object's fields in name order — strings quoted and cut at 60 characters, a
    /// personal field hashed, a number or flag as written, an array by its count, an object by its fields' names;
    /// anything else by its size. At most ``maximumSummary`` characters.
    static func summary(of body: Data) -> String {
        guard !body.isEmpty else { return "" }
        guard case .object(let object)? = try? JSONDecoder().decode(JSONValue.self, from: body) else {
            return "(\(body.count) bytes)"
        }
        let fields = object.keys.sorted().map { key -> String in
            let name = shortened(key, to: 40)
            let value = object[key] ?? .null
            if personalFields.contains(key.lowercased()) || key.hasPrefix("$") {
                let text =
                    value.stringValue ?? String(decoding: (try? JSONEncoder().encode(value)) ?? Data(), as: UTF8.self)
                return "\(name)=sha256:\(HexDigest.sha256(text).prefix(12))"
            }
            return "\(name)=\(describe(value))"
        }
        return shortened(fields.joined(separator: ", "), to: maximumSummary)
    }

    /// One value of a body in brief.
    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): "\"" + shortened(text, to: 60) + "\""
        case .array(let items): "[\(items.count)]"
        case .object(let fields): "{" + shortened(fields.keys.sorted().joined(separator: ", "), to: 80) + "}"
        case .null: "null"
        case .boolean(let flag): flag ? "true" : "false"
        case .integer(let whole): String(whole)
        case .number(let number): String(number)
        case .decimal(let number): "\(number)"
        }
    }

    /// `text` without control or format characters, cut to `limit` characters (with `…` when cut).
    static func shortened(_ text: String, to limit: Int) -> String {
        let clean = String(
            String.UnicodeScalarView(
                text.unicodeScalars.filter {
                    $0.properties.generalCategory != .control && $0.properties.generalCategory != .format
                }))
        return clean.count <= limit ? clean : String(clean.prefix(limit - 1)) + "…"
    }
}
