public import Foundation
public import StoreKeeperAPI

extension StoreKeeper {
    /// Where the server is and how StoreKeeperKit decides.
    public struct Configuration: Sendable {
        /// The StoreKeeper server (e.g. `https://subscriptions.example.com`).
        public var serverURL: URL
        /// The app's public key (`pk_…`), safe to ship in the app.
        public var apiKey: String
        /// When a cached answer stands in for the server, and for how long offline. Defaults: 5 minutes, 3 days.
        public var accessPolicy: AccessPolicy
        /// How long one server request may take. Default 20 seconds.
        public var requestTimeout: TimeInterval
        /// What the app tells the server about itself with every request, for targeting rules: its platform
        /// (`StoreKeeper-Platform`), version (`StoreKeeper-App-Version`), storefront (`StoreKeeper-Storefront`,
        /// ISO 3166-1 alpha-3; `nil`: the server uses the customer's latest subscription's) and language
        /// (`Accept-Language`). Defaults: this device's platform, the bundle's `CFBundleShortVersionString`, no
        /// storefront, the first preferred language.
        public var client = ClientDescription.current
        /// How long ``StoreKeeper/offerings()`` waits for the server and the store when nothing is cached on the
        /// device, before it fails as `timedOut`. Default 5 seconds.
        public var offeringsTimeout: TimeInterval = 5
        /// The server's answer-signing public keys (base64 Ed25519, as `storekeeper keys new signing` prints them;
        /// two while the server's key changes). When set, every request carries a fresh nonce and every answer must
        /// be signed for it by one of these keys: an answer that was changed, replayed or made up on the way is
        /// refused (``StoreKeeperError/Code/answerNotVerified``; ``StoreKeeper/customerInfo(fetchPolicy:)`` then
        /// answers ``CustomerInfo/Verification/failed``, granting only what a verified cached answer still grants).
        /// Empty (the default): answers are not checked.
        public var answerSigningKeys: [String] = []
        /// Signs a promotional offer for (product id, offer id, app user id): call your backend, which decides
        /// whether this customer gets the offer and asks StoreKeeper's `POST /v1/offers/sign` with a secret key
        /// (never ship a secret key in the app). `nil` (the default): promotional offers are refused.
        public var offerSigner: (@Sendable (String, String, String) async throws -> OfferSignature)?

        /// A configuration with the defaults.
        public init(
            serverURL: URL, apiKey: String, accessPolicy: AccessPolicy = AccessPolicy(),
            requestTimeout: TimeInterval = 20,
            offerSigner: (@Sendable (String, String, String) async throws -> OfferSignature)? = nil
        ) {
            self.serverURL = serverURL
            self.apiKey = apiKey
            self.accessPolicy = accessPolicy
            self.requestTimeout = requestTimeout
            self.offerSigner = offerSigner
        }
    }
}
