/// Writes an event's detail (a flat string map) as the JSON `JSONEncoder` with `.sortedKeys` writes for it —
/// the same bytes — without going through `Encodable`: it is written for every event, and the generic
/// encoder cost more than the rest of building the event.
enum EventDetailWriter {
    /// The detail as a JSON object, keys sorted, strings escaped as `JSONEncoder` escapes them (quote,
    /// backslash, slash, the short escapes and `\u00XX` for other control characters).
    /// - Parameter detail: The detail.
    /// - Returns: The JSON text.
    static func json(_ detail: [String: String]) -> String {
        var output: [UInt8] = [UInt8(ascii: "{")]
        for (index, key) in detail.keys.sorted().enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            append(key, to: &output)
            output.append(UInt8(ascii: ":"))
            append(detail[key] ?? "", to: &output)
        }
        output.append(UInt8(ascii: "}"))
        return String(decoding: output, as: UTF8.self)
    }

    static func append(_ text: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): output += [UInt8(ascii: "\\"), byte]
            case 0x0A: output += Array(#"\n"#.utf8)
            case 0x0D: output += Array(#"\r"#.utf8)
            case 0x09: output += Array(#"\t"#.utf8)
            case 0x08: output += Array(#"\b"#.utf8)
            case 0x0C: output += Array(#"\f"#.utf8)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                output += Array(#"\u00"#.utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
