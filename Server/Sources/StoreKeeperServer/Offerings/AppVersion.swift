/// An app version as dotted numbers (`2.10.1`), compared number by number (`2.10` is after `2.9`; missing
/// numbers are zeros, so `2.1` equals `2.1.0`).
struct AppVersion: Comparable, Sendable {
    /// The numbers, trailing zeros dropped.
    let parts: [Int]

    /// Reads `text`: 1–4 numbers of up to 9 digits, separated by dots; `nil` for anything else.
    init?(_ text: String) {
        let pieces = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...4).contains(pieces.count) else { return nil }
        var parts: [Int] = []
        for piece in pieces {
            guard (1...9).contains(piece.count), piece.allSatisfy({ $0.isASCII && $0.isNumber }),
                let number = Int(piece)
            else { return nil }
            parts.append(number)
        }
        while parts.last == 0 { parts.removeLast() }
        self.parts = parts
    }

    static func < (lhs: AppVersion, rhs: AppVersion) -> Bool { lhs.parts.lexicographicallyPrecedes(rhs.parts) }
}
