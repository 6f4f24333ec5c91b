/// What a verified receipt must say about itself.
public struct AppReceiptExpectations: Sendable, Hashable {
    /// The bundle identifier; `nil` accepts any.
    public var bundleID: String?
    /// The app version (`CFBundleVersion`); `nil` accepts any.
    public var appVersion: String?
    /// The device identifier (16 bytes: `identifierForVendor` or the Mac's GUID) whose SHA-1 device hash the
    /// receipt must carry; `nil` skips the check (a server rarely knows it).
    public var deviceIdentifier: [UInt8]?

    /// Makes expectations; by default none.
    /// - Parameters:
    ///   - bundleID: Required bundle id.
    ///   - appVersion: Required app version.
    ///   - deviceIdentifier: Device identifier for the hash check.
    public init(bundleID: String? = nil, appVersion: String? = nil, deviceIdentifier: [UInt8]? = nil) {
        self.bundleID = bundleID
        self.appVersion = appVersion
        self.deviceIdentifier = deviceIdentifier
    }
}
