/// A parsed JSON value, for the few places where verification must read JSON before anything is trusted
/// (a JWS header, a payload's `signedDate`) and `JSONDecoder` would be slower than the signature check.
///
/// The parser is strict (RFC 8259), bounded in depth, and never traps on malformed input.
public enum JSONValue: Sendable, Hashable {
    /// A string.
    case string(String)
    /// A number, kept as text so no precision is lost; see ``doubleValue``.
    case number(String)
    /// `true` or `false`.
    case bool(Bool)
    /// `null`.
    case null
    /// An array.
    case array([JSONValue])
    /// An object, in document order; duplicate keys are refused by the parser.
    case object([(String, JSONValue)])

    /// The member named `key` when this is an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    /// The string when this is a string.
    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The number when this is a number.
    public var doubleValue: Double? {
        if case .number(let text) = self { return Double(text) }
        return nil
    }

    /// Parses JSON text.
    /// - Parameter bytes: UTF-8 JSON.
    /// - Returns: The value.
    /// - Throws: ``VerificationError/Code/malformed`` naming the offset of the first error.
    public static func parse(_ bytes: some Collection<UInt8>) throws -> JSONValue {
        if let result = try bytes.withContiguousStorageIfAvailable({ try parse(buffer: $0) }) {
            return result
        }
        return try Array(bytes).withUnsafeBufferPointer { try parse(buffer: $0) }
    }

    /// Where JSON text first goes wrong, for messages a person can act on.
    /// - Parameter bytes: UTF-8 text.
    /// - Returns: The byte offset of the first error and what is wrong there, or `nil` when the text is JSON.
    public static func firstError(in bytes: [UInt8]) -> (offset: Int, reason: String)? {
        bytes.withUnsafeBufferPointer { buffer in
            var parser = Parser(bytes: buffer)
            do {
                _ = try parser.value(depth: 0)
                parser.skipWhitespace()
                return parser.index == buffer.count ? nil : (parser.index, "trailing characters")
            } catch {
                return (min(parser.index, buffer.count), (error as? VerificationError)?.reason ?? "\(error)")
            }
        }
    }

    static func parse(buffer: UnsafeBufferPointer<UInt8>) throws -> JSONValue {
        var parser = Parser(bytes: buffer)
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == buffer.count else { throw parser.failure("trailing characters") }
        return value
    }

    /// Structural equality (object member order matters).
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.bool(let a), .bool(let b)): a == b
        case (.null, .null): true
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    /// Hashes the value.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .string(let text): hasher.combine(0); hasher.combine(text)
        case .number(let text): hasher.combine(1); hasher.combine(text)
        case .bool(let flag): hasher.combine(flag)
        case .null: hasher.combine(3)
        case .array(let items): hasher.combine(items)
        case .object(let members):
            for (key, value) in members {
                hasher.combine(key)
                hasher.combine(value)
            }
        }
    }

    private struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0
        static let maximumDepth = 64

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        func failure(_ what: String) -> VerificationError {
            VerificationError(.malformed, "JSON: \(what) at offset \(index)")
        }

        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        mutating func value(depth: Int) throws -> JSONValue {
            guard depth < Self.maximumDepth else { throw failure("nesting deeper than \(Self.maximumDepth)") }
            skipWhitespace()
            guard index < bytes.count else { throw failure("unexpected end") }
            switch bytes[index] {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            default: return try number()
            }
        }

        mutating func literal(_ word: String) throws {
            for byte in word.utf8 {
                guard index < bytes.count, bytes[index] == byte else { throw failure("expected \(word)") }
                index += 1
            }
        }

        mutating func object(depth: Int) throws -> JSONValue {
            index += 1
            var members: [(String, JSONValue)] = []
            // Past a few members, keys are looked up in a set: a body of 100,000 keys is not 10^10 comparisons.
            var seen: Set<String> = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw failure("expected a key") }
                let key = try string()
                let duplicate: Bool
                if members.count < 16 {
                    duplicate = members.contains { $0.0 == key }
                } else {
                    if seen.isEmpty { seen = Set(members.map(\.0)) }
                    duplicate = !seen.insert(key).inserted
                }
                guard !duplicate else { throw failure("duplicate key \"\(key.prefix(100))\"") }
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw failure("expected ':'") }
                index += 1
                members.append((key, try value(depth: depth + 1)))
                skipWhitespace()
                guard index < bytes.count else { throw failure("unexpected end") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                } else if bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return .object(members)
                } else {
                    throw failure("expected ',' or '}'")
                }
            }
        }

        mutating func array(depth: Int) throws -> JSONValue {
            index += 1
            var items: [JSONValue] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(items)
            }
            while true {
                items.append(try value(depth: depth + 1))
                skipWhitespace()
                guard index < bytes.count else { throw failure("unexpected end") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                } else if bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return .array(items)
                } else {
                    throw failure("expected ',' or ']'")
                }
            }
        }

        mutating func number() throws -> JSONValue {
            let start = index
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
            let digitsStart = index
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 { index += 1 }
            guard index > digitsStart else { throw failure("expected a value") }
            // RFC 8259: an integer part of more than one digit does not start with 0.
            guard index - digitsStart == 1 || bytes[digitsStart] != UInt8(ascii: "0") else {
                throw failure("leading zero")
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                let fractionStart = index
                while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 { index += 1 }
                guard index > fractionStart else { throw failure("expected digits after '.'") }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                    index += 1
                }
                let exponentStart = index
                while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 { index += 1 }
                guard index > exponentStart else { throw failure("expected exponent digits") }
            }
            return .number(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
        }

        mutating func string() throws -> String {
            index += 1
            let start = index
            var hasEscapes = false
            while index < bytes.count {
                // Most string bytes need no attention (a nested token is kilobytes of base64): skip every byte that is
                // not a quote, a backslash or a control character in one tight loop.
                while index < bytes.count, bytes[index] >= 0x20, bytes[index] != 0x22, bytes[index] != 0x5C {
                    index += 1
                }
                guard index < bytes.count else { break }
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") { break }
                if byte < 0x20 { throw failure("control character in string") }
                if byte == UInt8(ascii: "\\") {
                    hasEscapes = true
                    index += 1
                }
                index += 1
            }
            guard index < bytes.count else { throw failure("unterminated string") }
            let raw = UnsafeBufferPointer(rebasing: bytes[start..<index])
            index += 1
            if !hasEscapes {
                guard let text = String(validating: raw, as: UTF8.self) else { throw failure("invalid UTF-8") }
                return text
            }
            return try unescape(raw)
        }

        func unescape(_ raw: UnsafeBufferPointer<UInt8>) throws -> String {
            var scalars = String.UnicodeScalarView()
            var utf8 = [UInt8]()
            func flush() throws {
                guard !utf8.isEmpty else { return }
                guard let text = String(validating: utf8, as: UTF8.self) else { throw failure("invalid UTF-8") }
                scalars.append(contentsOf: text.unicodeScalars)
                utf8.removeAll()
            }
            var position = 0
            func hex4() throws -> UInt32 {
                guard position + 4 <= raw.count else { throw failure("short \\u escape") }
                var value: UInt32 = 0
                for offset in 0..<4 {
                    let byte = raw[position + offset]
                    let digit: UInt32
                    switch byte {
                    case 48...57: digit = UInt32(byte - 48)
                    case 65...70: digit = UInt32(byte - 55)
                    case 97...102: digit = UInt32(byte - 87)
                    default: throw failure("bad \\u escape")
                    }
                    value = value << 4 | digit
                }
                position += 4
                return value
            }
            while position < raw.count {
                let byte = raw[position]
                guard byte == UInt8(ascii: "\\") else {
                    utf8.append(byte)
                    position += 1
                    continue
                }
                try flush()
                guard position + 1 < raw.count else { throw failure("dangling escape") }
                let escaped = raw[position + 1]
                position += 2
                let scalarValue: UInt32
                switch escaped {
                case UInt8(ascii: "\""): scalarValue = 0x22
                case UInt8(ascii: "\\"): scalarValue = 0x5C
                case UInt8(ascii: "/"): scalarValue = 0x2F
                case UInt8(ascii: "b"): scalarValue = 0x08
                case UInt8(ascii: "f"): scalarValue = 0x0C
                case UInt8(ascii: "n"): scalarValue = 0x0A
                case UInt8(ascii: "r"): scalarValue = 0x0D
                case UInt8(ascii: "t"): scalarValue = 0x09
                case UInt8(ascii: "u"):
                    let first = try hex4()
                    if (0xD800...0xDBFF).contains(first) {
                        guard position + 6 <= raw.count, raw[position] == UInt8(ascii: "\\"),
                            raw[position + 1] == UInt8(ascii: "u")
                        else { throw failure("unpaired surrogate") }
                        position += 2
                        let second = try hex4()
                        guard (0xDC00...0xDFFF).contains(second) else { throw failure("unpaired surrogate") }
                        scalarValue = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
                    } else {
                        scalarValue = first
                    }
                default: throw failure("bad escape")
                }
                guard let scalar = Unicode.Scalar(scalarValue) else { throw failure("invalid code point") }
                scalars.append(scalar)
            }
            try flush()
            return String(scalars)
        }
    }
}
