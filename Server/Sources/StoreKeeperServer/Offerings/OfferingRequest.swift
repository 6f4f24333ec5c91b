import HTTPTypes
import StoreKeeperAPI

/// What a request for offerings says about the app that sends it, read from its headers (each bounded: a header
/// is the caller's to fill with anything).
struct OfferingRequest: Sendable {
    /// ``ClientHeader/platform``.
    var platform: String?
    /// ``ClientHeader/appVersion``.
    var appVersion: String?
    /// ``ClientHeader/storefront``.
    var storefront: String?
    /// ``ClientHeader/language``.
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
        platform = value(ClientHeader.platform)
        appVersion = value(ClientHeader.appVersion)
        storefront = value(ClientHeader.storefront)
        acceptLanguage = value(ClientHeader.language)
    }

    /// A request that says nothing.
    init() {}
}
