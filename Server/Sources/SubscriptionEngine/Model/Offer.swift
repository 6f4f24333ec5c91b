/// The offer that applied to a period.
public struct Offer: Sendable, Hashable, Codable {
    /// Which kind of offer.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// A free trial (introductory).
        case freeTrial
        /// An introductory price paid each period.
        case introPayAsYouGo
        /// An introductory price paid once up front.
        case introPayUpFront
        /// An introductory offer whose payment mode the evidence does not say (receipts).
        case introductory
        /// A promotional offer.
        case promotional
        /// An offer code.
        case offerCode
        /// A win-back offer.
        case winBack
    }

    /// Which kind.
    public var kind: Kind
    /// The offer's identifier (promotional offer id, offer code reference name), when known.
    public var identifier: String?

    /// Makes an offer.
    /// - Parameters:
    ///   - kind: Which kind.
    ///   - identifier: Its identifier.
    public init(kind: Kind, identifier: String? = nil) {
        self.kind = kind
        self.identifier = identifier
    }

    /// Whether the offer consumes the subscription group's introductory eligibility.
    public var isIntroductory: Bool {
        switch kind {
        case .freeTrial, .introPayAsYouGo, .introPayUpFront, .introductory: true
        case .promotional, .offerCode, .winBack: false
        }
    }
}
