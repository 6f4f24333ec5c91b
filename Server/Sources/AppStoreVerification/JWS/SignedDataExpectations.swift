public import AppStoreModels
import StoreKeeperWire

/// What verified signed data must say about itself, beyond being signed by Apple.
public struct SignedDataExpectations: Sendable, Hashable {
    /// The app's bundle identifier; `nil` accepts any.
    public var bundleID: String?
    /// The environment; `nil` accepts any.
    public var environment: AppStoreEnvironment?
    /// The app's Apple id; `nil` accepts any. Checked only where the payload carries one.
    public var appAppleID: Int64?

    /// Makes expectations; by default none.
    /// - Parameters:
    ///   - bundleID: Required bundle id.
    ///   - environment: Required environment.
    ///   - appAppleID: Required app Apple id.
    public init(bundleID: String? = nil, environment: AppStoreEnvironment? = nil, appAppleID: Int64? = nil) {
        self.bundleID = bundleID
        self.environment = environment
        self.appAppleID = appAppleID
    }

    /// Checks the fields a payload carries.
    /// - Parameters:
    ///   - bundleID: The payload's bundle id, if it has one.
    ///   - environment: The payload's environment, if it has one.
    ///   - appAppleID: The payload's app Apple id, if it has one.
    ///   - what: What the payload is, for the error.
    /// - Throws: ``VerificationError`` with `unexpectedBundleID`, `unexpectedEnvironment` or `unexpectedAppAppleID`.
    public func check(bundleID: String?, environment: AppStoreEnvironment?, appAppleID: Int64?, _ what: String) throws {
        if let expected = self.bundleID, bundleID != expected {
            throw VerificationError(
                .unexpectedBundleID, "\(what) bundleId is \(UntrustedText.quoted(bundleID)), expected \"\(expected)\"")
        }
        if let expected = self.environment, environment != expected {
            throw VerificationError(
                .unexpectedEnvironment,
                "\(what) environment is \"\(environment?.rawValue ?? "absent")\", expected \"\(expected.rawValue)\"")
        }
        if let expected = self.appAppleID, let appAppleID, appAppleID != expected {
            throw VerificationError(.unexpectedAppAppleID, "\(what) appAppleId is \(appAppleID), expected \(expected)")
        }
    }
}
