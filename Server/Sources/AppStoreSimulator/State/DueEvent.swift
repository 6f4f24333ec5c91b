import Foundation

/// Something due for a subscription (a renewal, a grace or retry end), ordered earliest first and, at the same
/// instant, by original transaction id: the order the simulated world happens in. Catching up keeps them in a
/// `Heap`, so a long pause costs one pass over the subscriptions plus a logarithmic step per event, instead of
/// a pass over every subscription for every event.
struct DueEvent: Comparable {
    var due: Date
    var originalTransactionID: String

    static func < (lhs: DueEvent, rhs: DueEvent) -> Bool {
        (lhs.due, lhs.originalTransactionID) < (rhs.due, rhs.originalTransactionID)
    }
}
