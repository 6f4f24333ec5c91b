import StoreKeeperWire
import Testing

/// ``ConstantTime/equal(_:_:)-(Collection,Collection)`` says equal only for the same bytes, whatever the lengths.
@Suite struct ConstantTimeTests {
    @Test(
        arguments: [
            ("secret", "secret", true), ("secret", "secreT", false), ("secret", "secret!", false),
            ("secret!", "secret", false), ("", "", true), ("", "x", false), ("abc", "", false),
        ])
    func comparesBytes(_ a: String, _ b: String, _ equal: Bool) {
        #expect(ConstantTime.equal(a, b) == equal)
        #expect(ConstantTime.equal(Array(a.utf8), Array(b.utf8)) == equal)
    }
}
