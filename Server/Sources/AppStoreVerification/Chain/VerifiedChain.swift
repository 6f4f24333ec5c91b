public import Foundation
public import X509

/// A certificate chain that validated against a pinned root, with the window in which every certificate in it
/// is valid, so a cached result can be reused for any validation time inside that window.
public struct VerifiedChain: Sendable {
    /// The signing certificate.
    public var leaf: Certificate
    /// The certificates between leaf and root.
    public var intermediates: [Certificate]
    /// The pinned root the chain ends at.
    public var root: Certificate
    /// The latest `notValidBefore` in the chain.
    public var validFrom: Date
    /// The earliest `notValidAfter` in the chain.
    public var validUntil: Date

    /// Whether every certificate of the chain is valid at `time`.
    /// - Parameter time: The validation time.
    /// - Returns: `true` inside the window.
    public func isValid(at time: Date) -> Bool {
        time >= validFrom && time <= validUntil
    }
}
