/// Comparisons of secrets (keys, signatures, tokens) whose time does not depend on where they differ.
public enum ConstantTime {
    /// Whether `a` and `b` hold the same bytes. Every byte of the longer is visited whatever the lengths, so the
    /// time says nothing about a common prefix; unequal lengths are never equal.
    /// - Parameters:
    ///   - a: One value (typically what was sent).
    ///   - b: The other (typically what was expected).
    public static func equal(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
        var difference = UInt8(a.count == b.count ? 0 : 1)
        var left = a.makeIterator()
        var right = b.makeIterator()
        for _ in 0..<max(a.count, b.count) {
            difference |= (left.next() ?? 0) ^ (right.next() ?? 0)
        }
        return difference == 0
    }

    /// Whether two strings have the same UTF-8 bytes, compared as ``equal(_:_:)-(Collection,Collection)`` does.
    public static func equal(_ a: String, _ b: String) -> Bool { equal(Array(a.utf8), Array(b.utf8)) }
}
