/// Text made safe for HTML: the one place the dashboard escapes what it did not write itself.
enum HTMLText {
    /// `text` with `& < > " '` escaped, for element content and quoted attribute values alike.
    ///
    /// The walk is over Unicode scalars, as a browser's tokenizer reads, never over Swift `Character`s: a
    /// grapheme cluster such as `"` followed by U+0301, or U+0D4E (a Prepend letter) followed by `<`, is one
    /// `Character` unequal to `"` or `<`, and comparing clusters would let the markup scalar through raw.
    static func escape(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result.append(contentsOf: "&amp;".unicodeScalars)
            case "<": result.append(contentsOf: "&lt;".unicodeScalars)
            case ">": result.append(contentsOf: "&gt;".unicodeScalars)
            case "\"": result.append(contentsOf: "&quot;".unicodeScalars)
            case "'": result.append(contentsOf: "&#39;".unicodeScalars)
            default: result.append(scalar)
            }
        }
        return String(result)
    }

    /// A form body (`application/x-www-form-urlencoded`) as fields; `+` is a space.
    static func formFields(_ body: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in body.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (text: Substring) in
                String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            }
            guard let name = parts.first else { continue }
            fields[decode(name)] = parts.count > 1 ? decode(parts[1]) : ""
        }
        return fields
    }
}
