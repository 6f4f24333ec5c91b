// A transcription of StoreKit 2's transactions, verification results and AppStore as StoreKit2Store uses them
// (see Product.swift for what this module is).

/// https://developer.apple.com/documentation/storekit/transaction
@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
public struct Transaction: Identifiable, Equatable, Hashable, Sendable {
    /// https://developer.apple.com/documentation/storekit/transaction/id
    public let id: UInt64
    /// https://developer.apple.com/documentation/storekit/transaction/originalid
    public let originalID: UInt64
    /// https://developer.apple.com/documentation/storekit/transaction/productid
    public let productID: String

    /// https://developer.apple.com/documentation/storekit/transaction/finish()
    public func finish() async {}

    /// https://developer.apple.com/documentation/storekit/transaction/unfinished
    public static var unfinished: Transaction.Transactions { Transactions() }
    /// https://developer.apple.com/documentation/storekit/transaction/updates
    public static var updates: Transaction.Transactions { Transactions() }
    /// https://developer.apple.com/documentation/storekit/transaction/currententitlements
    public static var currentEntitlements: Transaction.Transactions { Transactions() }

    /// https://developer.apple.com/documentation/storekit/transaction/transactions
    public struct Transactions: AsyncSequence, Sendable {
        /// https://developer.apple.com/documentation/storekit/transaction/transactions/element
        public typealias Element = VerificationResult<Transaction>

        /// https://developer.apple.com/documentation/storekit/transaction/transactions/asynciterator
        public struct AsyncIterator: AsyncIteratorProtocol {
            /// https://developer.apple.com/documentation/storekit/transaction/transactions/asynciterator/next()
            public mutating func next() async -> VerificationResult<Transaction>? { nil }
        }

        /// https://developer.apple.com/documentation/storekit/transaction/transactions/makeasynciterator()
        public func makeAsyncIterator() -> AsyncIterator { AsyncIterator() }
    }
}

/// https://developer.apple.com/documentation/storekit/verificationresult
@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
public enum VerificationResult<SignedType: Sendable>: Sendable {
    /// https://developer.apple.com/documentation/storekit/verificationresult/unverified(_:_:)
    case unverified(SignedType, VerificationResult<SignedType>.VerificationError)
    /// https://developer.apple.com/documentation/storekit/verificationresult/verified(_:)
    case verified(SignedType)

    /// https://developer.apple.com/documentation/storekit/verificationresult/verificationerror
    public enum VerificationError: Error, Sendable {
        /// https://developer.apple.com/documentation/storekit/verificationresult/verificationerror/revokedcertificate
        case revokedCertificate
        /// https://developer.apple.com/documentation/storekit/verificationresult/verificationerror/invalidcertificatechain
        case invalidCertificateChain
        /// https://developer.apple.com/documentation/storekit/verificationresult/verificationerror/invaliddeviceverification
        case invalidDeviceVerification
        /// https://developer.apple.com/documentation/storekit/verificationresult/verificationerror/invalidencoding
        case invalidEncoding
        /// https://developer.apple.com/documentation/storekit/verificationresult/verificationerror/invalidsignature
        case invalidSignature
        /// https://developer.apple.com/documentation/storekit/verificationresult/verificationerror/missingrequiredproperties
        case missingRequiredProperties
    }

    /// https://developer.apple.com/documentation/storekit/verificationresult/unsafepayloadvalue
    public var unsafePayloadValue: SignedType {
        switch self {
        case .unverified(let value, _), .verified(let value): value
        }
    }

    /// https://developer.apple.com/documentation/storekit/verificationresult/jwsrepresentation-21vgo
    public var jwsRepresentation: String { "" }
}

/// https://developer.apple.com/documentation/storekit/appstore
@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
public enum AppStore {
    /// https://developer.apple.com/documentation/storekit/appstore/sync()
    public static func sync() async throws {}
}
