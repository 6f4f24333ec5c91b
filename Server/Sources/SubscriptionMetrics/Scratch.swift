/// A value a computation keeps on a type for its own bookkeeping, which is no part of what the type's value is:
/// it never takes part in equality or hashing, so two values that differ only in scratch are equal.
@propertyWrapper
struct Scratch<Value: Sendable>: Sendable, Hashable {
    /// The kept value.
    var wrappedValue: Value

    static func == (lhs: Scratch, rhs: Scratch) -> Bool { true }

    func hash(into hasher: inout Hasher) {}
}
