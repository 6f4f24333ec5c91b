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
    ///   control-character id, and for a look-alike (``lookAlikeReason(_:)``), naming the character.
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
        // Look-alikes: an id that shows as blank, or as another id with a space before or after it, or with an
        // invisible character inside (a Hangul filler, a Braille blank, a line separator) is a second customer a
        // person cannot tell from the first in the dashboard or a CSV.
        if let reason = lookAlikeReason(id) {
            throw .invalid(
                field == "device_id" ? .invalidDeviceID : .invalidAppUserID, "\(field) must not \(reason)")
        }
        return id
    }

    /// Why `id` would pass for another id or for nothing when shown, or `nil`: it starts or ends with white space
    /// (so a blank id too), holds white space other than the plain space U+0020, a line or paragraph separator, a
    /// default-ignorable code point (U+115F, U+3164, U+FFA0, variation selectors…) or the blank Braille pattern.
    static func lookAlikeReason(_ id: String) -> String? {
        let scalars = id.unicodeScalars
        if let first = scalars.first, first.properties.isWhitespace { return "start with white space" }
        if let last = scalars.last, last.properties.isWhitespace { return "end with white space" }
        for scalar in scalars {
            let code = String(format: "U+%04X", scalar.value)
            switch scalar.properties.generalCategory {
            case .lineSeparator, .paragraphSeparator: return "hold a line or paragraph separator (\(code))"
            default: break
            }
            if scalar.properties.isWhitespace, scalar != " " { return "hold white space other than U+0020 (\(code))" }
            if scalar.properties.isDefaultIgnorableCodePoint || scalar == "\u{2800}" {
                return "hold an invisible character (\(code))"
            }
        }
        return nil
    }
}
