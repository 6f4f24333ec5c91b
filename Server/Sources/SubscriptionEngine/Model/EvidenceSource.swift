/// Where an observation came from, ranked: when two observations of the same thing are equally recent, the
/// higher-ranked (more direct, more recently specified) source wins.
public enum EvidenceSource: String, Sendable, Hashable, Codable, Comparable, CaseIterable {
    /// A V1 notification's `unified_receipt`.
    case notificationV1
    /// A verifyReceipt response (`in_app`, `latest_receipt_info`, `pending_renewal_info`).
    case verifyReceipt
    /// An app receipt decoded locally.
    case localReceipt
    /// A StoreKit 2 signed transaction or renewal info posted by the app.
    case signedData
    /// A V2 notification's signed data.
    case notificationV2
    /// The App Store Server API.
    case serverAPI

    var rank: Int { Self.allCases.firstIndex(of: self)! }

    /// Orders by rank.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }
}
