/// An RFC 4180 reader for tests, over Unicode scalars as a spreadsheet reads: fields split at `,`, records at line
/// breaks, a field that opens with `"` runs to the `"` not followed by another (`""` is one quote). It shares no
/// code with the server's writer, so a field that breaks out of its quotes shows as a record of the wrong width.
public enum CSVReader {
    /// The records of `text`, each a list of fields (an empty last line is not a record).
    public static func records(_ text: String) -> [[String]] {
        var records: [[String]] = []
        var record: [String] = []
        var field = String.UnicodeScalarView()
        var quoted = false
        var inQuotes = false
        let scalars = Array(text.unicodeScalars)
        var index = 0
        func endField() {
            record.append(String(field))
            field = String.UnicodeScalarView()
            quoted = false
        }
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            if inQuotes {
                if scalar == "\"" {
                    if index < scalars.count, scalars[index] == "\"" {
                        field.append("\"")
                        index += 1
                    } else {
                        inQuotes = false
                    }
                } else {
                    field.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"" where field.isEmpty && !quoted:
                inQuotes = true
                quoted = true
            case ",": endField()
            case "\r": continue
            case "\n":
                endField()
                records.append(record)
                record = []
            default: field.append(scalar)
            }
        }
        if !field.isEmpty || !record.isEmpty || quoted {
            endField()
            records.append(record)
        }
        return records
    }
}
