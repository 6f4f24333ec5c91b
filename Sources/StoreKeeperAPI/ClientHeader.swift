/// The request headers in which an app describes itself (the SDK sends them; targeting reads them): spelled once,
/// for both sides.
public enum ClientHeader {
    /// The app's platform (`iOS`, `macOS`…).
    public static let platform = "StoreKeeper-Platform"
    /// The app's version (`2.1.0`).
    public static let appVersion = "StoreKeeper-App-Version"
    /// The App Store storefront (ISO 3166-1 alpha-3, `USA`).
    public static let storefront = "StoreKeeper-Storefront"
    /// The customer's languages, first preferred first.
    public static let language = "Accept-Language"
}
