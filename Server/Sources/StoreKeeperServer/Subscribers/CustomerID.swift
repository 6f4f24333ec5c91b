import Foundation
import StoreKeeperAPI

/// The one rule for an id a caller gives (`app_user_id`, `new_app_user_id`, `device_id`): 1–256 bytes of UTF-8
/// without control or format characters (Unicode `Cc` and `Cf`: newlines, ESC, bidi overrides, zero-width joiners),
/// normalised to NFC, that neither fuses with the character before it nor with the one after it.
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
        // A mark, joiner or spacing mark at the start would fuse with the character written before the id, and a
        // Prepend letter (U+0D4E) at the end with the one after it: the id would not stand on its own wherever it
        // is shown. The standard library's own grapheme rules decide: delimited by two ASCII characters, the id must
        // add exactly their two clusters.
        guard ("<" + id + ">").count == id.count + 2 else {
            throw .invalid(
                field == "device_id" ? .invalidDeviceID : .invalidAppUserID,
                "\(field) must not start with a combining or joining mark nor end with a prepended character "
                    + "(it would fuse with the text beside it)")
        }
        return id
    }
}
