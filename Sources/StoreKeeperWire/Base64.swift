/// Table-driven base64 decoding for the standard and URL-safe alphabets.
///
/// Tokens and receipts are decoded on every request; this avoids building intermediate `String`s and
/// accepts exactly what Apple produces: padded or unpadded, and (for receipts) line breaks and spaces.
public enum Base64 {
    private static let table: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        table[Int(UInt8(ascii: "+"))] = 62
        table[Int(UInt8(ascii: "/"))] = 63
        table[Int(UInt8(ascii: "-"))] = 62
        table[Int(UInt8(ascii: "_"))] = 63
        return table
    }()

    /// Decodes base64 or base64url text.
    /// - Parameters:
    ///   - bytes: The text's UTF-8 bytes.
    ///   - ignoringWhitespace: Whether spaces and line breaks are skipped (receipts) or refused (tokens).
    /// - Returns: The decoded bytes, or `nil` when the text is not valid base64.
    public static func decode(_ bytes: UnsafeBufferPointer<UInt8>, ignoringWhitespace: Bool = false) -> [UInt8]? {
        table.withUnsafeBufferPointer { table in
            var failed = false
            let output = [UInt8](unsafeUninitializedCapacity: bytes.count / 4 * 3 + 3) { buffer, written in
                var accumulator: UInt32 = 0
                var pending = 0
                var padding = 0
                var out = 0
                for byte in bytes {
                    let value = table[Int(byte)]
                    if value == 0xFF {
                        if byte == UInt8(ascii: "=") {
                            padding += 1
                            continue
                        }
                        if ignoringWhitespace, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { continue }
                        failed = true
                        break
                    }
                    if padding != 0 {
                        failed = true
                        break
                    }
                    accumulator = (accumulator << 6) | UInt32(value)
                    pending += 1
                    if pending == 4 {
                        buffer[out] = UInt8(truncatingIfNeeded: accumulator >> 16)
                        buffer[out + 1] = UInt8(truncatingIfNeeded: accumulator >> 8)
                        buffer[out + 2] = UInt8(truncatingIfNeeded: accumulator)
                        out += 3
                        accumulator = 0
                        pending = 0
                    }
                }
                if !failed {
                    switch pending {
                    case 0: break
                    case 2:
                        buffer[out] = UInt8(truncatingIfNeeded: accumulator >> 4)
                        out += 1
                    case 3:
                        buffer[out] = UInt8(truncatingIfNeeded: accumulator >> 10)
                        buffer[out + 1] = UInt8(truncatingIfNeeded: accumulator >> 2)
                        out += 2
                    default: failed = true
                    }
                    if padding > 2 { failed = true }
                }
                written = out
            }
            return failed ? nil : output
        }
    }

    /// Decodes base64 or base64url from a string or substring.
    /// - Parameters:
    ///   - text: The text.
    ///   - ignoringWhitespace: Whether spaces and line breaks are skipped.
    /// - Returns: The decoded bytes, or `nil`.
    public static func decode(_ text: some StringProtocol, ignoringWhitespace: Bool = false) -> [UInt8]? {
        if let result = text.utf8.withContiguousStorageIfAvailable({
            decode($0, ignoringWhitespace: ignoringWhitespace)
        }) {
            return result
        }
        return Array(text.utf8).withUnsafeBufferPointer { decode($0, ignoringWhitespace: ignoringWhitespace) }
    }

    /// Encodes bytes as base64url without padding, as JWS does.
    /// - Parameter bytes: The bytes.
    /// - Returns: The text.
    public static func urlEncode(_ bytes: some Sequence<UInt8>) -> String {
        encode(bytes, alphabet: urlAlphabet, padded: false)
    }

    /// Encodes bytes as padded standard base64.
    /// - Parameter bytes: The bytes.
    /// - Returns: The text.
    public static func standardEncode(_ bytes: some Sequence<UInt8>) -> String {
        encode(bytes, alphabet: standardAlphabet, padded: true)
    }

    static let standardAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    static let urlAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Both encodings in one pass: three bytes to four characters of `alphabet`, the tail padded with `=` or not.
    static func encode(_ bytes: some Sequence<UInt8>, alphabet: [UInt8], padded: Bool) -> String {
        let input = Array(bytes)
        var output = [UInt8]()
        output.reserveCapacity((input.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= input.count {
            let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
            output.append(alphabet[Int((chunk >> 18) & 63)])
            output.append(alphabet[Int((chunk >> 12) & 63)])
            output.append(alphabet[Int((chunk >> 6) & 63)])
            output.append(alphabet[Int(chunk & 63)])
            index += 3
        }
        let rest = input.count - index
        if rest > 0 {
            var chunk = UInt32(input[index]) << 16
            if rest == 2 { chunk |= UInt32(input[index + 1]) << 8 }
            output.append(alphabet[Int((chunk >> 18) & 63)])
            output.append(alphabet[Int((chunk >> 12) & 63)])
            if rest == 2 {
                output.append(alphabet[Int((chunk >> 6) & 63)])
            } else if padded {
                output.append(UInt8(ascii: "="))
            }
            if padded { output.append(UInt8(ascii: "=")) }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
