import Foundation

extension JSONValue {
    /// The number `text` (JSON's number syntax) as a value that writes back the same number, or `nil` when none
    /// can: a whole number within 64 bits is ``integer(_:)``; a number a double holds as written (its shortest
    /// form has the same digits at the same place) is ``number(_:)``, or ``integer(_:)`` when whole and below
    /// 2^53 (`3.0`); any other that `Decimal` holds digit for digit is ``decimal(_:)``. Out of range (`1e999`),
    /// so small it would read as 0 (`1e-999`) or more than 38 significant digits: `nil`.
    public init?(exactNumber text: String) {
        if let whole = Int64(text) {
            self = .integer(whole)
            return
        }
        guard let written = DecimalDigits(text), let number = Double(text), number.isFinite else { return nil }
        if DecimalDigits("\(number)") == written {
            let whole = number.rounded() == number && abs(number) < 9.0e15
            self = whole ? .integer(Int64(number)) : .number(number)
        } else if let exact = Decimal(string: text), exact.isFinite, DecimalDigits("\(exact)") == written {
            self = .decimal(exact)
        } else {
            return nil
        }
    }
}
