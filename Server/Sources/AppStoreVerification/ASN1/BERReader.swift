/// Reads BER elements from a byte buffer without copying, refusing anything malformed with a typed error.
///
/// Every length is checked against its enclosing element, nesting is bounded, and indefinite lengths are
/// resolved by walking their children to the end-of-contents marker, so truncated or hostile input ends in
/// ``VerificationError/Code/malformed`` rather than a trap.
public struct BERReader: Sendable {
    /// The buffer elements point into.
    public let bytes: [UInt8]
    /// How deep constructed elements may nest.
    public static let maximumDepth = 32

    /// Makes a reader over a buffer.
    /// - Parameter bytes: The encoded bytes.
    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Reads the single element that fills the buffer (trailing bytes are refused).
    /// - Parameter what: What the element is, for error messages.
    /// - Returns: The element.
    /// - Throws: ``VerificationError/Code/malformed``.
    public func root(_ what: @autoclosure () -> String) throws -> BERElement {
        let element = try element(at: 0, end: bytes.count, depth: 0, what())
        guard element.encoded.upperBound == bytes.count else {
            throw VerificationError(.malformed, "\(what()): \(bytes.count - element.encoded.upperBound) trailing bytes")
        }
        return element
    }

    /// The children of a constructed element.
    /// - Parameters:
    ///   - parent: A constructed element.
    ///   - what: What the parent is, for error messages.
    /// - Returns: Its children in order.
    /// - Throws: ``VerificationError/Code/malformed``.
    public func children(of parent: BERElement, _ what: @autoclosure () -> String) throws -> [BERElement] {
        guard parent.isConstructed else {
            throw VerificationError(.malformed, "\(what()): expected a constructed element")
        }
        var result: [BERElement] = []
        var offset = parent.contents.lowerBound
        while offset < parent.contents.upperBound {
            let child = try element(at: offset, end: parent.contents.upperBound, depth: 1, what())
            result.append(child)
            offset = child.encoded.upperBound
        }
        return result
    }

    /// The bytes of a primitive element, or the concatenated chunks of a constructed (BER) string.
    /// - Parameters:
    ///   - element: A string-like element.
    ///   - what: What it is, for error messages.
    /// - Returns: The value bytes.
    /// - Throws: ``VerificationError/Code/malformed``.
    public func stringBytes(_ element: BERElement, _ what: @autoclosure () -> String, depth: Int = 0) throws
        -> ArraySlice<UInt8>
    {
        if !element.isConstructed { return bytes[element.contents] }
        guard depth < Self.maximumDepth else { throw VerificationError(.malformed, "\(what()): nested too deeply") }
        var joined: [UInt8] = []
        for chunk in try children(of: element, what()) {
            joined.append(contentsOf: try stringBytes(chunk, what(), depth: depth + 1))
        }
        return joined[...]
    }

    /// Decodes an INTEGER of at most 64 bits.
    /// - Parameters:
    ///   - element: An INTEGER element.
    ///   - what: What it is, for error messages.
    /// - Returns: The value.
    /// - Throws: ``VerificationError/Code/malformed`` when it is not an INTEGER or is wider than 64 bits.
    public func integer(_ element: BERElement, _ what: @autoclosure () -> String) throws -> Int64 {
        guard element.isUniversal(BERElement.Universal.integer), !element.isConstructed,
            !element.contents.isEmpty, element.contents.count <= 8
        else { throw VerificationError(.malformed, "\(what()): expected an INTEGER of at most 8 bytes") }
        var value: Int64 = bytes[element.contents.lowerBound] & 0x80 != 0 ? -1 : 0
        for index in element.contents { value = (value << 8) | Int64(bytes[index]) }
        return value
    }

    /// Decodes an OBJECT IDENTIFIER to dotted text.
    /// - Parameters:
    ///   - element: An OBJECT IDENTIFIER element.
    ///   - what: What it is, for error messages.
    /// - Returns: Dotted text such as `1.2.840.113549.1.7.2`.
    /// - Throws: ``VerificationError/Code/malformed``.
    public func objectIdentifier(_ element: BERElement, _ what: @autoclosure () -> String) throws -> String {
        guard element.isUniversal(BERElement.Universal.objectIdentifier), !element.isConstructed,
            !element.contents.isEmpty, element.contents.count <= 64
        else { throw VerificationError(.malformed, "\(what()): expected an OBJECT IDENTIFIER") }
        var arcs: [UInt64] = []
        var current: UInt64 = 0
        for index in element.contents {
            let byte = bytes[index]
            guard current < (1 << 56) else { throw VerificationError(.malformed, "\(what()): arc too large") }
            current = current << 7 | UInt64(byte & 0x7F)
            if byte & 0x80 == 0 {
                if arcs.isEmpty {
                    let first = min(current / 40, 2)
                    arcs.append(first)
                    arcs.append(current - first * 40)
                } else {
                    arcs.append(current)
                }
                current = 0
            }
        }
        guard bytes[element.contents.upperBound - 1] & 0x80 == 0 else {
            throw VerificationError(.malformed, "\(what()): truncated OBJECT IDENTIFIER")
        }
        return arcs.map(String.init).joined(separator: ".")
    }

    /// Reads the element starting at `offset`, which must end by `end`.
    func element(at offset: Int, end: Int, depth: Int, _ what: @autoclosure () -> String) throws -> BERElement {
        guard depth <= Self.maximumDepth else { throw VerificationError(.malformed, "\(what()): nested too deeply") }
        var index = offset
        func next() throws -> UInt8 {
            guard index < end else { throw VerificationError(.malformed, "\(what()): truncated at byte \(index)") }
            defer { index += 1 }
            return bytes[index]
        }
        let identifier = try next()
        var tagNumber = UInt32(identifier & 0x1F)
        if tagNumber == 0x1F {
            tagNumber = 0
            var byte: UInt8
            var count = 0
            repeat {
                byte = try next()
                count += 1
                guard count <= 4 else { throw VerificationError(.malformed, "\(what()): tag number too large") }
                tagNumber = tagNumber << 7 | UInt32(byte & 0x7F)
            } while byte & 0x80 != 0
        }
        let first = try next()
        let isConstructed = identifier & 0x20 != 0
        if first == 0x80 {
            guard isConstructed else {
                throw VerificationError(
                    .malformed, "\(what()): indefinite length on a primitive element at byte \(offset)")
            }
            let contentStart = index
            var cursor = index
            while true {
                guard cursor + 2 <= end else {
                    throw VerificationError(
                        .malformed, "\(what()): missing end-of-contents for element at byte \(offset)")
                }
                if bytes[cursor] == 0, bytes[cursor + 1] == 0 {
                    return BERElement(
                        identifier: identifier, tagNumber: tagNumber,
                        contents: contentStart..<cursor, encoded: offset..<(cursor + 2))
                }
                let child = try element(at: cursor, end: end, depth: depth + 1, what())
                cursor = child.encoded.upperBound
            }
        }
        var length = 0
        if first & 0x80 == 0 {
            length = Int(first)
        } else {
            let count = Int(first & 0x7F)
            guard count <= 4 else {
                throw VerificationError(.malformed, "\(what()): length of \(count) bytes is too large")
            }
            for _ in 0..<count { length = length << 8 | Int(try next()) }
        }
        guard length <= end - index else {
            throw VerificationError(
                .malformed, "\(what()): element at byte \(offset) claims \(length) bytes but only \(end - index) remain"
            )
        }
        let contents = index..<(index + length)
        return BERElement(
            identifier: identifier, tagNumber: tagNumber, contents: contents, encoded: offset..<contents.upperBound)
    }
}
