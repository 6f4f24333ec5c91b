public import Foundation
import StoreKeeperAPI

/// What the app tells the server about itself with every request (see ``StoreKeeper/Configuration/client``).
public struct ClientDescription: Sendable, Hashable {
    /// `iOS`, `iPadOS`, `macOS`, `tvOS`, `watchOS`, `visionOS` (or `Linux` where tests run).
    public var platform: String
    /// The app's version (`2.1.0`).
    public var appVersion: String?
    /// The App Store storefront (`USA`), when the app knows it.
    public var storefront: String?
    /// The customer's language (`de-AT`).
    public var locale: String?

    /// Makes a description.
    public init(platform: String, appVersion: String?, storefront: String? = nil, locale: String?) {
        self.platform = platform
        self.appVersion = appVersion
        self.storefront = storefront
        self.locale = locale
    }

    /// This device and app.
    public static var current: ClientDescription {
        #if os(iOS)
            let platform = "iOS"
        #elseif os(macOS)
            let platform = "macOS"
        #elseif os(tvOS)
            let platform = "tvOS"
        #elseif os(watchOS)
            let platform = "watchOS"
        #elseif os(visionOS)
            let platform = "visionOS"
        #else
            let platform = "Linux"
        #endif
        return ClientDescription(
            platform: platform,
            appVersion: Bundle.main.object(forInfoDictionaryKey: "CFBundleShortVersionString") as? String,
            locale: Locale.preferredLanguages.first)
    }

    /// The request headers that say it.
    var headers: [(String, String)] {
        [
            (ClientHeader.platform, platform), (ClientHeader.appVersion, appVersion),
            (ClientHeader.storefront, storefront), (ClientHeader.language, locale),
        ].compactMap { name, value in value.map { (name, $0) } }
    }
}
