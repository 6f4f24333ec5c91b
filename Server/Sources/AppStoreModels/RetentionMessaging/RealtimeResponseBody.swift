/// A Get Retention Message endpoint's answer: exactly one retention message for the system to show — a message,
/// a switch-plan message with an alternate product, or a promotional offer with its message.
/// https://developer.apple.com/documentation/retentionmessaging/realtimeresponsebody
public struct RealtimeResponseBody: Codable, Sendable, Hashable {
    /// A text message (with an optional image).
    public var message: Message?
    /// A switch-plan message.
    public var alternateProduct: AlternateProduct?
    /// A promotional offer and its message.
    public var promotionalOffer: PromotionalOffer?

    /// Makes an answer.
    public init(
        message: Message? = nil, alternateProduct: AlternateProduct? = nil, promotionalOffer: PromotionalOffer? = nil
    ) {
        self.message = message
        self.alternateProduct = alternateProduct
        self.promotionalOffer = promotionalOffer
    }

    /// The message the answer shows, whichever kind it is.
    public var messageIdentifier: String? {
        message?.messageIdentifier ?? alternateProduct?.messageIdentifier ?? promotionalOffer?.messageIdentifier
    }

    /// How many of the three kinds the answer holds (Apple shows one: exactly one must be present).
    public var kinds: Int {
        [message != nil, alternateProduct != nil, promotionalOffer != nil].filter { $0 }.count
    }

    /// https://developer.apple.com/documentation/retentionmessaging/message
    public struct Message: Codable, Sendable, Hashable {
        /// The approved message to show (a UUID).
        public var messageIdentifier: String
        /// Makes one.
        public init(messageIdentifier: String) { self.messageIdentifier = messageIdentifier }
    }

    /// https://developer.apple.com/documentation/retentionmessaging/alternateproduct
    public struct AlternateProduct: Codable, Sendable, Hashable {
        /// The approved message to show (a UUID).
        public var messageIdentifier: String
        /// The product the customer may switch to, in the same subscription group.
        public var productId: String
        /// Makes one.
        public init(messageIdentifier: String, productId: String) {
            self.messageIdentifier = messageIdentifier
            self.productId = productId
        }
    }

    /// https://developer.apple.com/documentation/retentionmessaging/promotionaloffer
    public struct PromotionalOffer: Codable, Sendable, Hashable {
        /// The approved message to show (a UUID).
        public var messageIdentifier: String
        /// The offer signed as a compact JWS (`promotionalOfferSignatureV2`).
        public var promotionalOfferSignatureV2: String?
        /// The offer signed the legacy way (`promotionalOfferSignatureV1`).
        public var promotionalOfferSignatureV1: SignatureV1?
        /// Makes one.
        public init(
            messageIdentifier: String, promotionalOfferSignatureV2: String?, promotionalOfferSignatureV1: SignatureV1?
        ) {
            self.messageIdentifier = messageIdentifier
            self.promotionalOfferSignatureV2 = promotionalOfferSignatureV2
            self.promotionalOfferSignatureV1 = promotionalOfferSignatureV1
        }
    }

    /// https://developer.apple.com/documentation/retentionmessaging/promotionaloffersignaturev1
    public struct SignatureV1: Codable, Sendable, Hashable {
        /// The base64 DER ECDSA signature.
        public var encodedSignature: String
        /// The product the offer is for.
        public var productId: String
        /// The signature's nonce (a UUID).
        public var nonce: String
        /// When it was signed, in milliseconds since 1970.
        public var timestamp: Int64
        /// The In-App Purchase key's id.
        public var keyId: String
        /// The offer's identifier.
        public var offerIdentifier: String
        /// The app account token the signature covers, if any.
        public var appAccountToken: String?
        /// Makes one.
        public init(
            encodedSignature: String, productId: String, nonce: String, timestamp: Int64, keyId: String,
            offerIdentifier: String, appAccountToken: String? = nil
        ) {
            self.encodedSignature = encodedSignature
            self.productId = productId
            self.nonce = nonce
            self.timestamp = timestamp
            self.keyId = keyId
            self.offerIdentifier = offerIdentifier
            self.appAccountToken = appAccountToken
        }
    }
}
