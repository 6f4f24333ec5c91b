public import Foundation

/// A scalar that Apple spells in more than one way on the wire.
///
/// verifyReceipt writes every scalar as a string (`"quantity": "1"`, `"is_trial_period": "false"`), some
/// fields as numbers (`"adam_id": 0`), and JWS payloads use JSON numbers and booleans — except where older
/// tokens do not. Conforming types accept all of these spellings.
public protocol LenientValue: Sendable, Hashable {
    /// Decodes the value from whatever JSON scalar Apple used.
    /// - Parameter container: The single-value container holding the scalar.
    /// - Throws: `DecodingError.dataCorrupted` naming the coding path when no spelling fits.
    init(leniently container: any SingleValueDecodingContainer) throws

    /// Encodes the value in its canonical JSON form (numbers as numbers, dates as milliseconds).
    /// - Parameter container: The container to write to.
    func encodeCanonically(to container: inout any SingleValueEncodingContainer) throws
}

extension LenientValue {
    static func corrupted(_ container: any SingleValueDecodingContainer, _ what: String) -> DecodingError {
        DecodingError.dataCorrupted(
            .init(codingPath: container.codingPath, debugDescription: "expected \(what)")
        )
    }
}

extension String: LenientValue {
    /// Accepts a string, or a number written as a JSON number (ids sometimes are).
    public init(leniently container: any SingleValueDecodingContainer) throws {
        if let text = try? container.decode(String.self) {
            self = text
        } else if let number = try? container.decode(Int64.self) {
            self = String(number)
        } else if let number = try? container.decode(Double.self) {
            self = String(number)
        } else if let flag = try? container.decode(Bool.self) {
            self = String(flag)
        } else {
            throw Self.corrupted(container, "a string")
        }
    }

    /// Writes the string.
    public func encodeCanonically(to container: inout any SingleValueEncodingContainer) throws {
        try container.encode(self)
    }
}

extension Int64: LenientValue {
    /// Accepts a JSON integer, an integral double, or a string of digits.
    public init(leniently container: any SingleValueDecodingContainer) throws {
        if let number = try? container.decode(Int64.self) {
            self = number
        } else if let number = try? container.decode(Double.self), number.rounded() == number,
            let exact = Int64(exactly: number)
        {
            self = exact
        } else if let text = try? container.decode(String.self),
            let number = Int64(text.trimmingCharacters(in: .whitespaces))
        {
            self = number
        } else {
            throw Self.corrupted(container, "an integer or a string of digits")
        }
    }

    /// Writes a JSON number.
    public func encodeCanonically(to container: inout any SingleValueEncodingContainer) throws {
        try container.encode(self)
    }
}

extension Int: LenientValue {
    /// Accepts a JSON integer, an integral double, or a string of digits.
    public init(leniently container: any SingleValueDecodingContainer) throws {
        let wide = try Int64(leniently: container)
        guard let narrow = Int(exactly: wide) else { throw Self.corrupted(container, "a smaller integer") }
        self = narrow
    }

    /// Writes a JSON number.
    public func encodeCanonically(to container: inout any SingleValueEncodingContainer) throws {
        try container.encode(self)
    }
}

extension Double: LenientValue {
    /// Accepts a JSON number or a numeric string.
    public init(leniently container: any SingleValueDecodingContainer) throws {
        if let number = try? container.decode(Double.self) {
            self = number
        } else if let text = try? container.decode(String.self), let number = Double(text) {
            self = number
        } else {
            throw Self.corrupted(container, "a number")
        }
    }

    /// Writes a JSON number.
    public func encodeCanonically(to container: inout any SingleValueEncodingContainer) throws {
        try container.encode(self)
    }
}

extension Bool: LenientValue {
    /// Accepts `true`/`false`, `"true"`/`"false"`, `"1"`/`"0"`, `1`/`0` and `"yes"`/`"no"`.
    public init(leniently container: any SingleValueDecodingContainer) throws {
        if let flag = try? container.decode(Bool.self) {
            self = flag
        } else if let number = try? container.decode(Int64.self), number == 0 || number == 1 {
            self = number == 1
        } else if let text = try? container.decode(String.self) {
            switch text.lowercased() {
            case "true", "1", "yes": self = true
            case "false", "0", "no": self = false
            default: throw Self.corrupted(container, "a boolean, got \"\(text)\"")
            }
        } else {
            throw Self.corrupted(container, "a boolean")
        }
    }

    /// Writes a JSON boolean.
    public func encodeCanonically(to container: inout any SingleValueEncodingContainer) throws {
        try container.encode(self)
    }
}

extension Date: LenientValue {
    /// Accepts milliseconds since 1970 (number, fractional number or string of digits) and the textual spellings
    /// of ``AppleDateFormat``.
    public init(leniently container: any SingleValueDecodingContainer) throws {
        if let milliseconds = try? container.decode(Double.self) {
            self = Date(timeIntervalSince1970: milliseconds / 1000)
        } else if let text = try? container.decode(String.self), let date = AppleDateFormat.parse(text) {
            self = date
        } else {
            throw Self.corrupted(container, "milliseconds since 1970 or an Apple date string")
        }
    }

    /// Writes whole milliseconds since 1970 as a JSON number (fractions are kept when present).
    public func encodeCanonically(to container: inout any SingleValueEncodingContainer) throws {
        let milliseconds = timeIntervalSince1970 * 1000
        if milliseconds.rounded() == milliseconds, let whole = Int64(exactly: milliseconds) {
            try container.encode(whole)
        } else {
            try container.encode(milliseconds)
        }
    }
}
