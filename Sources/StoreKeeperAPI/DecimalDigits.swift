/// A number's significant digits and where they sit (`-1.50e3` and `-1500`: `-`, `15`, 3), to ask whether two
/// spellings are the same number without rounding either.
struct DecimalDigits: Equatable {
    /// Whether the number is below zero.
    let negative: Bool
    /// The digits from the first non-zero to the last non-zero (empty for zero).
    let digits: Substring
    /// The power of ten of the first digit (0 for zero).
    let leadingExponent: Int

    /// The digits of `text` (JSON's number syntax, or Swift's `1e-05` / `1.5e+300`), `nil` when it is not one.
    init?(_ text: String) {
        var rest = Substring(text)
        negative = rest.first == "-"
        if negative { rest = rest.dropFirst() }
        let mantissa = rest.prefix { $0 != "e" && $0 != "E" }
        var exponent = 0
        if mantissa.count < rest.count {
            let written = rest.dropFirst(mantissa.count + 1)
            guard let value = Int(written.first == "+" ? written.dropFirst() : written) else { return nil }
            exponent = value
        }
        let whole = mantissa.prefix { $0 != "." }
        let fraction = mantissa.dropFirst(whole.count + 1)
        let all = whole + fraction
        guard !all.isEmpty, all.allSatisfy({ ("0"..."9").contains($0) }) else { return nil }
        let leadingZeros = all.prefix { $0 == "0" }.count
        let significant = all.dropFirst(leadingZeros)
        digits = Substring(significant.reversed().drop { $0 == "0" }.reversed())
        leadingExponent = digits.isEmpty ? 0 : whole.count - 1 - leadingZeros + exponent
    }
}
