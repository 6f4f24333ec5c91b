import Crypto
import Foundation

/// A backfill CSV: a header naming `app_user_id` and one of `original_transaction_id` or `receipt`, then one
/// customer a line. Fields may be quoted; blank lines are skipped. Whatever is wrong is named by line and value.
struct ImportFile {
    /// What the second column holds.
    enum Kind: String {
        case originalTransactionID = "original_transaction_id"
        case receipt
    }

    /// One customer to bring in.
    struct Row: Equatable {
        /// The line it is on (1 is the header).
        var line: Int
        /// The customer's id in the app.
        var appUserID: String
        /// The original transaction id or the receipt.
        var value: String
        /// A digest of the line's text: a rerun skips a line whose number and digest were imported.
        var digest: String
    }

    var kind: Kind
    var rows: [Row]

    /// Parses the file's text.
    /// - Throws: ``CommandFailure`` naming the file, the line and what is wrong.
    init(text: String, name: String) throws {
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
        guard let header = lines.first.map(Self.fields), header.count == 2, header[0] == "app_user_id",
            let kind = Kind(rawValue: header[1])
        else {
            throw CommandFailure(
                "\(name): line 1 must be the header app_user_id,original_transaction_id or app_user_id,receipt")
        }
        self.kind = kind
        rows = []
        for (index, text) in lines.enumerated().dropFirst()
        where !text.trimmingCharacters(in: .whitespaces).isEmpty {
            let fields = Self.fields(text)
            guard fields.count == 2, !fields[0].isEmpty, !fields[1].isEmpty else {
                throw CommandFailure(
                    "\(name): line \(index + 1) must have two non-empty fields, app_user_id and \(kind.rawValue): \"\(text.prefix(60))\""
                )
            }
            let digest = SHA256.hash(data: Data(text.utf8)).prefix(8).map { String(format: "%02x", $0) }.joined()
            rows.append(Row(line: index + 1, appUserID: fields[0], value: fields[1], digest: digest))
        }
    }

    /// A line's fields, each trimmed and unquoted.
    static func fields(_ line: String) -> [String] {
        line.split(separator: ",", omittingEmptySubsequences: false).map {
            var field = $0.trimmingCharacters(in: .whitespaces)
            if field.count >= 2, field.hasPrefix("\""), field.hasSuffix("\"") {
                field = String(field.dropFirst().dropLast()).replacingOccurrences(of: "\"\"", with: "\"")
            }
            return field
        }
    }
}
