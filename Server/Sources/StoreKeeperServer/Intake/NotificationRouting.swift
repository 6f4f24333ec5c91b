import AppStoreVerification
import Foundation
import StoreKeeperWire

/// Reading a V2 notification before anything in it is trusted: the token out of the body, and the bundle id it
/// claims, which picks the app whose verifier then checks the whole token.
///
/// Both are read by scanning bytes, because Apple's bodies and payloads have one predictable shape and a
/// notification is ~10 KB that the verifier decodes properly anyway; anything of another shape falls back to
/// a full JSON parse, so the scan only ever decides faster, never differently.
enum NotificationRouting {
    /// The token of a body that is exactly `{"signedPayload": "<token>"}` (whitespace allowed between tokens),
    /// or nil for any other body. A JWS holds only base64url characters and dots, so such a value has no escapes
    /// and reads the same as a JSON parser would read it.
    static func signedPayload(inBody body: Data) -> String? {
        body.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> String? in
            var cursor = Cursor(bytes: raw.bindMemory(to: UInt8.self))
            guard cursor.take("{"), cursor.take("\"signedPayload\""), cursor.take(":"), cursor.take("\"") else {
                return nil
            }
            let token = cursor.tokenCharacters()
            guard !token.isEmpty, cursor.take("\""), cursor.take("}"), cursor.atEnd else { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: cursor.bytes[token]), as: UTF8.self)
        }
    }

    /// The app a notification body names, unverified: its V2 payload's `bundleId`, or a V1 body's `bid`.
    static func claimedBundleID(_ body: Data) -> String? {
        if let signedPayload = signedPayload(inBody: body) { return bundleID(token: signedPayload) }
        guard let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] else { return nil }
        if let signedPayload = object["signedPayload"] as? String { return bundleID(token: signedPayload) }
        return object["bid"] as? String
    }

    /// A position in a body being scanned.
    struct Cursor {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0

        /// Skips JSON whitespace.
        mutating func skipSpace() {
            while position < bytes.count, NotificationRouting.isSpace(bytes[position]) { position += 1 }
        }

        /// Consumes `text` after any whitespace; false (and nothing consumed but the whitespace) when it is not next.
        mutating func take(_ text: StaticString) -> Bool {
            skipSpace()
            let count = text.utf8CodeUnitCount
            guard bytes.count - position >= count, memcmp(bytes.baseAddress! + position, text.utf8Start, count) == 0
            else { return false }
            position += count
            return true
        }

        /// Consumes the compact-JWS characters that follow, returning where they are.
        mutating func tokenCharacters() -> Range<Int> {
            let start = position
            NotificationRouting.tokenCharacter.withUnsafeBufferPointer { table in
                while position < bytes.count, table[Int(bytes[position])] { position += 1 }
            }
            return start..<position
        }

        /// Whether only whitespace is left.
        var atEnd: Bool {
            mutating get {
                skipSpace()
                return position == bytes.count
            }
        }
    }

    /// The bundle id a notification token claims (see ``bundleID(payload:)``), reading its payload without
    /// verifying anything; nil when the token is not `header.payload.signature` with a base64url payload.
    static func bundleID(token: String) -> String? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let payload = Base64.decode(parts[1]) else { return nil }
        return bundleID(payload: payload)
    }

    /// The bundle id a notification payload claims (`data`, `summary` or `externalPurchaseToken`), "" when it
    /// claims none (a TEST), nil when it is not a notification (no string `notificationType`). Apple's payloads
    /// have one `bundleId` and their nested tokens in base64, so the claim is read by scanning for its key; a
    /// payload that escapes characters there is parsed in full instead.
    static func bundleID(payload: [UInt8]) -> String? {
        guard let type = value(of: "notificationType", in: payload), payload[type] == UInt8(ascii: "\"") else {
            return nil
        }
        guard let start = value(of: "bundleId", in: payload) else { return "" }
        if payload[start] == UInt8(ascii: "\""), let end = payload[(start + 1)...].firstIndex(of: UInt8(ascii: "\"")),
            !payload[(start + 1)..<end].contains(UInt8(ascii: "\\"))
        {
            return String(decoding: payload[(start + 1)..<end], as: UTF8.self)
        }
        guard let object = try? JSONValue.parse(payload), object["notificationType"]?.stringValue != nil else {
            return nil
        }
        return object["data"]?["bundleId"]?.stringValue ?? object["summary"]?["bundleId"]?.stringValue
            ?? object["externalPurchaseToken"]?["bundleId"]?.stringValue ?? ""
    }

    /// Where the value of the first `"key":` in `json` starts (after whitespace), if any.
    static func value(of key: String, in json: [UInt8]) -> Int? {
        let needle = Array("\"\(key)\"".utf8)
        var index = 0
        while index + needle.count <= json.count {
            guard let hit = json[index...].firstIndex(of: needle[0]), hit + needle.count <= json.count else {
                return nil
            }
            if json[hit..<(hit + needle.count)].elementsEqual(needle) {
                var position = hit + needle.count
                func skipSpace() { while position < json.count, isSpace(json[position]) { position += 1 } }
                skipSpace()
                if position < json.count, json[position] == UInt8(ascii: ":") {
                    position += 1
                    skipSpace()
                    return position < json.count ? position : nil
                }
            }
            index = hit + 1
        }
        return nil
    }

    /// JSON whitespace.
    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    /// Which bytes are characters of a compact JWS: base64url, standard base64's `+/=`, and the dot between parts.
    static let tokenCharacter: [Bool] = (0..<256).map { value in
        let byte = UInt8(value)
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "-_.+/=".utf8.contains(byte)
        }
    }
}
