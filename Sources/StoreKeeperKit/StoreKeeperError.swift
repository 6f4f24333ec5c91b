/// Why a StoreKeeperKit call failed: a stable ``Code`` and a reason for people. Equal by code.
public struct StoreKeeperError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure. Open: codes may be added.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code's name.
        public var rawValue: String
        /// Wraps a name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The name.
        public var description: String { rawValue }

        /// The server could not be reached (or answered 5xx): try again later; cached access still applies.
        public static let offline = Code(rawValue: "offline")
        /// The server refused the request (``StoreKeeperError/serverCode`` says why).
        public static let server = Code(rawValue: "server")
        /// The server's answer could not be read.
        public static let invalidAnswer = Code(rawValue: "invalid_answer")
        /// The store does not sell a product of that id.
        public static let productNotFound = Code(rawValue: "product_not_found")
        /// The customer may not buy (parental controls, device restrictions).
        public static let purchaseNotAllowed = Code(rawValue: "purchase_not_allowed")
        /// The customer already has this product (or a subscription in its group).
        public static let alreadyOwned = Code(rawValue: "already_owned")
        /// The store failed for another reason.
        public static let store = Code(rawValue: "store")
        /// A promotional offer was asked for with no ``StoreKeeper/Configuration/offerSigner``, or the signer failed.
        public static let offerNotSigned = Code(rawValue: "offer_not_signed")
        /// The answer did not arrive within its bound (``StoreKeeper/Configuration/offeringsTimeout``) and
        /// nothing was cached to answer with.
        public static let timedOut = Code(rawValue: "timed_out")
        /// The answer is not signed by the server for this request (``StoreKeeper/Configuration/answerSigningKeys``):
        /// it was changed, replayed or made up on the way. Nothing it says is used.
        public static let answerNotVerified = Code(rawValue: "answer_not_verified")
        /// The store cannot do this (a management page or refund requests where StoreKit has none).
        public static let unsupported = Code(rawValue: "unsupported")
        /// The call starts a purchase, which the app does itself in ``StoreKeeper/Mode/observer``.
        public static let observerMode = Code(rawValue: "observer_mode")
        /// ``StoreKeeper/start()`` was not called first.
        public static let notStarted = Code(rawValue: "not_started")
    }

    /// What kind of failure.
    public var code: Code
    /// What failed, for people (never a key).
    public var reason: String
    /// The server's error code (e.g. `invalid_signature`) for ``Code/server``.
    public var serverCode: String?
    /// The HTTP status the server answered, when it answered.
    public var httpStatus: Int?

    /// Makes an error.
    public init(_ code: Code, _ reason: String, serverCode: String? = nil, httpStatus: Int? = nil) {
        self.code = code
        self.reason = reason
        self.serverCode = serverCode
        self.httpStatus = httpStatus
    }

    /// `code: reason`.
    public var description: String { "\(code): \(reason)" }

    /// Equal by code.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    /// Hashes the code.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
