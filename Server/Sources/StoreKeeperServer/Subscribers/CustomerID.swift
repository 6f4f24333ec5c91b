import Foundation
import StoreKeeperAPI

/// The one rule for an id a caller gives (`app_user_id`, `new_app_user_id`, `device_id`): 1–256 bytes of UTF-8
/// without control or format characters (Unicode `Cc` and `Cf`: newlines, ESC, bidi overrides, zero-width joiners),
/// normalised to NFC.
///
/// Swift compares strings by canonical equivalence while the databases compare bytes, so `café` typed as one
/// character (NFC) and as `e` plus a combining accent (NFD) would be one customer in the server's caches and two
/// in its tables. Every id is therefore normalised to NFC where it enters, and everything after compares bytes
/// of the normalised id: the caches, the queries and the answers all see one customer.
enum CustomerID {
    /// The longest id, in UTF-8 bytes.
    static let maximumBytes = 256

    /// `raw` checked and normalised to NFC.
    /// - Parameters:
    ///   - raw: The id as the caller sent it.
    ///   - field: The field it came in, for the error.
    /// - Returns: The NFC form of the id.
    /// - Throws: `invalid_app_user_id` (or `invalid_<field>`), naming the field, for an empty, too long or
    ///   control-character id.
    static func normalized(_ raw: String, field: String = "app_user_id") throws(ServiceError) -> String {
        let id = raw.precomposedStringWithCanonicalMapping
        guard !id.isEmpty, id.utf8.count <= maximumBytes,
            !id.unicodeScalars.contains(where: {
                $0.properties.generalCategory == .control || $0.properties.generalCategory == .format
            })
        else {
            throw .invalid(
                field == "device_id" ? .invalidDeviceID : .invalidAppUserID,
                "\(field) must be 1–\(maximumBytes) bytes without control or format characters (Unicode Cc, Cf)")
        }
        return id
    }
}
