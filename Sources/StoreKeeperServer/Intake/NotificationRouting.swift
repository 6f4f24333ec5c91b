import AppStoreVerification
import Foundation

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
            let bytes = raw.bindMemory(to: UInt8.self)
            var position = 0
            func skipSpace() { while position < bytes.count, isSpace(bytes[position]) { position += 1 } }
            func take(_ text: StaticString) -> Bool {
                skipSpace()
                let expected = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
                guard bytes.count - position >= expected.count,
                    expected.indices.allSatisfy({ bytes[position + $0] == expected[$0] })
                else { return false }
                position += expected.count
                return true
            }
            guard take("{"), take("\"signedPayload\""), take(":"), take("\"") else { return nil }
            let start = position
            while position < bytes.count, isTokenCharacter(bytes[position]) { position += 1 }
            let end = position
            guard end > start, take("\""), take("}") else { return nil }
            skipSpace()
            guard position == bytes.count else { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }
    }

    /// The bundle id a notification token claims (see ``bundleID(payload:)``), reading its payload without
    /// verifying anything; nil when the token is not `header.payload.signature` with a base64url payload.
    static func bundleID(token: String) -> String? {
        let utf8 = Array(token.utf8)
        let dots = utf8.indices.filter { utf8[$0] == UInt8(ascii: ".") }
        guard dots.count == 2,
            let payload = utf8[(dots[0] + 1)..<dots[1]].withUnsafeBufferPointer({ Base64.decode($0) })
        else { return nil }
        return bundleID(payload: payload)
    }

    /// The bundle id a notification payload claims (`data`, `summary` or `externalPurchaseToken`), "" when it
    /// claims none (a TEST), nil when it is not a notification (no string `notificationType`). Apple's payloads
    /// have one `bundleId` and their nested tokens in base64, so the claim is read by scanning for its key; a
    /// payload that escapes characters there is parsed in full instead.
    static func bundleID(payload: [UInt8]) -> String? {
        guard let type = value(of: "notificationType", in: payload), payload[type] == UInt8(ascii: "\"") else { return nil }
        guard let start = value(of: "bundleId", in: payload) else { return "" }
        if payload[start] == UInt8(ascii: "\""), let end = payload[(start + 1)...].firstIndex(of: UInt8(ascii: "\"")),
            !payload[(start + 1)..<end].contains(UInt8(ascii: "\\"))
        {
            return String(decoding: payload[(start + 1)..<end], as: UTF8.self)
        }
        guard let object = try? JSONValue.parse(payload), object["notificationType"]?.stringValue != nil else { return nil }
        return object["data"]?["bundleId"]?.stringValue ?? object["summary"]?["bundleId"]?.stringValue
            ?? object["externalPurchaseToken"]?["bundleId"]?.stringValue ?? ""
    }

    /// Where the value of the first `"key":` in `json` starts (after whitespace), if any.
    static func value(of key: String, in json: [UInt8]) -> Int? {
        let needle = Array("\"\(key)\"".utf8)
        var index = 0
        while index + needle.count <= json.count {
            guard let hit = json[index...].firstIndex(of: needle[0]), hit + needle.count <= json.count else { return nil }
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

    /// A character of a compact JWS: base64url, standard base64's `+/=`, or the dot between parts.
    static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="):
            return true
        default:
            return false
        }
    }
}
