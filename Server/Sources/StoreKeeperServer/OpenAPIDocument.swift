import Foundation

/// The OpenAPI 3.1 document of the `/v1` API, kept in the repository at
/// `Sources/StoreKeeperServer/Resources/openapi.json` and served at `/openapi.json`.
enum OpenAPIDocument {
    static let bytes: [UInt8] = {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "json"),
            let data = try? Data(contentsOf: url)
        else { return Array(#"{"openapi":"3.1.0","info":{"title":"StoreKeeper","version":"1"},"paths":{}}"#.utf8) }
        return Array(data)
    }()
}
