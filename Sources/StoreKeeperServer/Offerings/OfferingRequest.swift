import HTTPTypes

/// What a request for offerings says about the app that sends it, read from its headers (each bounded: a header
/// is the caller's to fill with anything).
struct OfferingRequest: Sendable {
    /// `StoreKeeper-Platform`.
    var platform: String?
    /// `StoreKeeper-App-Version`.
    var appVersion: String?
    /// `StoreKeeper-Storefront`.
    var storefront: String?
    /// `Accept-Language`.
    var acceptLanguage: String?

    /// The longest header value read; a longer one is ignored.
    static let maximumLength = 200

    /// Reads the headers of a request.
    init(_ headers: HTTPFields) {
        func value(_ name: String) -> String? {
            guard let field = HTTPField.Name(name), let value = headers[field], value.utf8.count <= Self.maximumLength
            else { return nil }
            return value
        }
        platform = value(CustomerContext.platformHeader)
        appVersion = value(CustomerContext.appVersionHeader)
        storefront = value(CustomerContext.storefrontHeader)
        acceptLanguage = value("Accept-Language")
    }

    /// A request that says nothing.
    init() {}
}
