import Foundation

/// Reads `signedDate` from a payload before it is decoded into a model, to choose the chain validation time.
///
/// A top-level scan that skips other members without building them: the full decode comes later, once the
/// signature and chain are known good.
enum SignedDate {
    /// The payload's `signedDate` (milliseconds, fractional in Xcode data), or `nil` when absent.
    /// - Throws: ``VerificationError/Code/malformedPayload`` when the payload is not a JSON object or the
    ///   field is not a number.
    static func read(_ payload: [UInt8]) throws -> Date? {
        try payload.withUnsafeBufferPointer { bytes in
            var scanner = Scanner(bytes: bytes)
            guard let milliseconds = try scanner.topLevelNumber(named: "signedDate") else { return nil }
            return Date(timeIntervalSince1970: milliseconds / 1000)
        }
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        func failure(_ what: String) -> VerificationError {
            VerificationError(.malformedPayload, "payload: \(what) at offset \(index)")
        }

        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        mutating func expect(_ byte: UInt8) throws {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == byte else {
                throw failure("expected '\(Character(Unicode.Scalar(byte)))'")
            }
            index += 1
        }

        /// Skips a string whose opening quote was consumed; returns its raw range and whether it had escapes.
        mutating func skipString() throws -> (Range<Int>, Bool) {
            let start = index
            var escaped = false
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    defer { index += 1 }
                    return (start..<index, escaped)
                case UInt8(ascii: "\\"):
                    escaped = true
                    index += 2
                default:
                    index += 1
                }
            }
            throw failure("unterminated string")
        }

        mutating func skipValue() throws {
            skipWhitespace()
            guard index < bytes.count else { throw failure("expected a value") }
            var depth = 0
            repeat {
                guard index < bytes.count else { throw failure("unterminated value") }
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    index += 1
                    _ = try skipString()
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                    guard depth <= 64 else { throw failure("nesting too deep") }
                    index += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    guard depth > 0 else { return }
                    depth -= 1
                    index += 1
                case UInt8(ascii: ","), 0x20, 0x09, 0x0A, 0x0D:
                    if depth == 0 { return }
                    index += 1
                default:
                    index += 1
                }
            } while depth > 0 || (index < bytes.count && !Self.endsScalar(bytes[index]))
        }

        static func endsScalar(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D: true
            default: false
            }
        }

        mutating func topLevelNumber(named name: StaticString) throws -> Double? {
            try expect(UInt8(ascii: "{"))
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") { return nil }
            while true {
                try expect(UInt8(ascii: "\""))
                let (key, escaped) = try skipString()
                try expect(UInt8(ascii: ":"))
                skipWhitespace()
                if escaped {
                    // Rare: fall back to the full parser to compare the unescaped key.
                    let json = try JSONValue.parse(buffer: bytes)
                    guard let field = json[String(describing: name)] else { return nil }
                    guard let number = field.doubleValue, number.isFinite else {
                        throw failure("signedDate is not a number")
                    }
                    return number
                }
                if key.count == name.utf8CodeUnitCount,
                    memcmp(bytes.baseAddress! + key.lowerBound, name.utf8Start, key.count) == 0
                {
                    let start = index
                    while index < bytes.count, !Self.endsScalar(bytes[index]) { index += 1 }
                    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                    guard let number = Double(text), number.isFinite, text.first != "+" else {
                        throw failure("signedDate is not a number")
                    }
                    return number
                }
                try skipValue()
                skipWhitespace()
                guard index < bytes.count else { throw failure("unterminated object") }
                if bytes[index] == UInt8(ascii: "}") { return nil }
                guard bytes[index] == UInt8(ascii: ",") else { throw failure("expected ',' or '}'") }
                index += 1
            }
        }
    }
}
