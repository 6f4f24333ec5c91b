/// An HTML tokenizer for tests, after the WHATWG tokenizer's states that decide where markup starts and ends (data,
/// tag open, tag name, attribute name and value in its three forms, comments, doctype, the raw text of `style` and
/// `script`), reading Unicode scalars as a browser does. Tests use it to check that text the server escaped stays
/// text: no tag, attribute or comment of its making.
public enum HTMLTokenizer {
    /// One token.
    public enum Token: Equatable, Sendable {
        /// Text between tags, with the character references the dashboard writes decoded.
        case text([Unicode.Scalar])
        /// A start tag: its name (lowercased) and attributes, values decoded, in order.
        case start(String, [Attribute])
        /// An end tag's name (lowercased).
        case end(String)
        /// A comment, doctype or other `<!…>` / `<?…>` markup.
        case other
    }

    /// One attribute of a start tag.
    public struct Attribute: Equatable, Sendable {
        /// The name, lowercased.
        public var name: String
        /// The value, character references decoded.
        public var value: [Unicode.Scalar]

        /// An attribute named `name` holding `value`.
        public init(name: String, value: [Unicode.Scalar]) {
            self.name = name
            self.value = value
        }
    }

    /// The tokens of `html`, adjacent text merged.
    public static func tokens(_ html: String) -> [Token] {
        let scalars = Array(html.unicodeScalars)
        var tokens: [Token] = []
        var text: [Unicode.Scalar] = []
        var index = 0
        func flush() {
            if !text.isEmpty { tokens.append(.text(decode(text))) }
            text = []
        }
        func isLetter(_ scalar: Unicode.Scalar) -> Bool {
            (0x41...0x5A).contains(scalar.value) || (0x61...0x7A).contains(scalar.value)
        }
        func isSpace(_ scalar: Unicode.Scalar) -> Bool { [" ", "\t", "\n", "\r", "\u{0C}"].contains(scalar) }
        while index < scalars.count {
            let scalar = scalars[index]
            guard scalar == "<", index + 1 < scalars.count else {
                text.append(scalar)
                index += 1
                continue
            }
            let next = scalars[index + 1]
            if next == "!" || next == "?" {
                flush()
                let closing: [Unicode.Scalar] =
                    scalars[(index + 2)...].starts(with: ["-", "-"]) ? ["-", "-", ">"] : [">"]
                index = end(of: closing, in: scalars, from: index + 2)
                tokens.append(.other)
            } else if next == "/", index + 2 < scalars.count, isLetter(scalars[index + 2]) {
                flush()
                var cursor = index + 2
                var name = ""
                while cursor < scalars.count, scalars[cursor] != ">", !isSpace(scalars[cursor]) {
                    name.unicodeScalars.append(scalars[cursor])
                    cursor += 1
                }
                index = end(of: [">"], in: scalars, from: cursor)
                tokens.append(.end(name.lowercased()))
            } else if isLetter(next) {
                flush()
                var cursor = index + 1
                var name = ""
                while cursor < scalars.count, scalars[cursor] != ">", scalars[cursor] != "/", !isSpace(scalars[cursor])
                {
                    name.unicodeScalars.append(scalars[cursor])
                    cursor += 1
                }
                var attributes: [Attribute] = []
                while cursor < scalars.count, scalars[cursor] != ">" {
                    if isSpace(scalars[cursor]) || scalars[cursor] == "/" {
                        cursor += 1
                        continue
                    }
                    var attributeName = ""
                    repeat {
                        attributeName.unicodeScalars.append(scalars[cursor])
                        cursor += 1
                    } while cursor < scalars.count && !isSpace(scalars[cursor])
                        && !["/", ">", "="].contains(scalars[cursor])
                    while cursor < scalars.count, isSpace(scalars[cursor]) { cursor += 1 }
                    var value: [Unicode.Scalar] = []
                    if cursor < scalars.count, scalars[cursor] == "=" {
                        cursor += 1
                        while cursor < scalars.count, isSpace(scalars[cursor]) { cursor += 1 }
                        if cursor < scalars.count, scalars[cursor] == "\"" || scalars[cursor] == "'" {
                            let quote = scalars[cursor]
                            cursor += 1
                            while cursor < scalars.count, scalars[cursor] != quote {
                                value.append(scalars[cursor])
                                cursor += 1
                            }
                            cursor += 1
                        } else {
                            while cursor < scalars.count, !isSpace(scalars[cursor]), scalars[cursor] != ">" {
                                value.append(scalars[cursor])
                                cursor += 1
                            }
                        }
                    }
                    attributes.append(Attribute(name: attributeName.lowercased(), value: decode(value)))
                }
                index = cursor + 1
                let lowered = name.lowercased()
                tokens.append(.start(lowered, attributes))
                if lowered == "style" || lowered == "script" {
                    // Raw text: everything up to the matching end tag is text, whatever it holds.
                    let closing = Array("</\(lowered)".unicodeScalars)
                    var cursor = index
                    while cursor < scalars.count, !scalars[cursor...].starts(with: closing) { cursor += 1 }
                    tokens.append(.text(Array(scalars[index..<cursor])))
                    index = cursor
                }
            } else {
                text.append(scalar)
                index += 1
            }
        }
        flush()
        return tokens
    }

    /// The index just past the first `closing` at or after `start` (the end of input when there is none).
    static func end(of closing: [Unicode.Scalar], in scalars: [Unicode.Scalar], from start: Int) -> Int {
        var cursor = start
        while cursor < scalars.count {
            if scalars[cursor...].starts(with: closing) { return cursor + closing.count }
            cursor += 1
        }
        return scalars.count
    }

    /// `scalars` with `&amp; &lt; &gt; &quot; &#39;` and numeric references decoded.
    public static func decode(_ scalars: [Unicode.Scalar]) -> [Unicode.Scalar] {
        var decoded: [Unicode.Scalar] = []
        var index = 0
        let named: [String: Unicode.Scalar] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'"]
        while index < scalars.count {
            if scalars[index] == "&", let semicolon = scalars[index...].prefix(12).firstIndex(of: ";") {
                let name = String(String.UnicodeScalarView(scalars[(index + 1)..<semicolon]))
                if let scalar = named[name] {
                    decoded.append(scalar)
                    index = semicolon + 1
                    continue
                }
                if name.hasPrefix("#"), let value = UInt32(name.dropFirst()), let scalar = Unicode.Scalar(value) {
                    decoded.append(scalar)
                    index = semicolon + 1
                    continue
                }
            }
            decoded.append(scalars[index])
            index += 1
        }
        return decoded
    }
}
