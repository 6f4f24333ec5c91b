/// How PostgreSQL commits notifications that arrive together (see ``SQLStore/applyGroup(_:)``).
public struct GroupCommit: Sendable, Hashable {
    /// How many groups may commit at once.
    public var workers: Int
    /// The most notifications one group carries (1, with `smallestGroup` 2: each commits on its own).
    public var largestGroup: Int
    /// The fewest notifications applied in a group's shared transaction; a smaller group runs each on its own.
    /// 1 sends even a lone notification through the group's transaction (the conformance suite does, so the
    /// group executor is held to the same dumps as the others).
    public var smallestGroup: Int

    /// Makes a setting.
    public init(workers: Int, largestGroup: Int, smallestGroup: Int = 2) {
        self.workers = workers
        self.largestGroup = largestGroup
        self.smallestGroup = smallestGroup
    }

    /// Two groups at once, up to 32 notifications each: the setting measured fastest here (docs/performance.md).
    public static let standard = GroupCommit(workers: 2, largestGroup: 32)

    /// Every notification commits on its own.
    public static let off = GroupCommit(workers: 1, largestGroup: 1)

    /// Whether notifications go through the group queue at all.
    var isOn: Bool { largestGroup > 1 || smallestGroup <= 1 }
}
