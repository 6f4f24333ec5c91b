public import Foundation
public import StoreKeeperAPI

/// What the customer may use now, how StoreKeeperKit knows it, and the server's document it comes from.
public struct CustomerInfo: Sendable, Hashable {
    /// How the answer was reached.
    public enum Verification: String, Sendable, Hashable {
        /// The server answered just now.
        case server
        /// A cached server answer, still valid by the server's clock plus elapsed time.
        case cached
        /// The server cannot be reached; a cached answer grants until its expiry plus the offline grace.
        case offline
        /// The server cannot be reached and no cached answer covers now (or elapsed time is unknown): show
        /// "cannot verify, connect to continue" — not a paywall, and not access.
        case cannotVerify
        /// The server's answer was not signed for this request (see
        /// ``StoreKeeper/Configuration/answerSigningKeys``): something on the way changed or replayed it. Nothing
        /// it said is used; the entitlements are the last verified cached answer's, by its own expiry dates.
        case failed
    }

    /// The app user id the answer is for.
    public var appUserID: String
    /// Entitlements by identifier, active or not.
    public var entitlements: [String: EntitlementInfo]
    /// How the answer was reached.
    public var verification: Verification
    /// The instant the decision was made at: the server's clock plus elapsed time; `nil` when unknown.
    public var decidedAt: Date?
    /// The server's `request_date` of the answer this comes from; `nil` when there is none.
    public var requestDate: Date?
    /// The server's subscriber document (subscriptions with their explanations, other purchases, eligibility).
    public var subscriber: Subscriber?
    /// Where the customer manages their App Store subscriptions (Apple's page), when they have one; `nil`
    /// otherwise. ``StoreKeeper/showManageSubscriptions()`` shows the page in the app where StoreKit can.
    public var managementURL: URL?

    /// Apple's page where a customer manages their App Store subscriptions.
    public static let appStoreManagementURL = URL(string: "https://apps.apple.com/account/subscriptions")!

    /// Makes an answer.
    public init(
        appUserID: String, entitlements: [String: EntitlementInfo], verification: Verification, decidedAt: Date?,
        requestDate: Date?, subscriber: Subscriber?
    ) {
        self.appUserID = appUserID
        self.entitlements = entitlements
        self.verification = verification
        self.decidedAt = decidedAt
        self.requestDate = requestDate
        self.subscriber = subscriber
    }

    /// The entitlements that grant access now.
    public var activeEntitlements: [String: EntitlementInfo] { entitlements.filter(\.value.isActive) }
}
