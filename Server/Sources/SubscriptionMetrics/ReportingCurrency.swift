/// One currency to report money in, with a rate table: MRR and refund amounts are then also summed across
/// currencies, each converted at its configured rate.
public struct ReportingCurrency: Sendable, Hashable, Codable {
    /// The ISO 4217 code reported in (`USD`).
    public var code: String
    /// What one unit of each other currency is worth in ``code`` (`{"EUR": 1.08, "JPY": 0.0067}`).
    public var rates: [String: Double]

    /// Makes a reporting currency.
    public init(code: String, rates: [String: Double]) {
        self.code = code
        self.rates = rates
    }

    /// The rate of `currency`: 1 for the reporting currency itself, `nil` when the table has none (such
    /// amounts are left out of the reporting series, never guessed).
    /// - Parameter currency: An ISO 4217 code.
    /// - Returns: Units of ``code`` per unit of `currency`.
    public func rate(for currency: String) -> Double? {
        currency == code ? 1 : rates[currency]
    }

    /// The reason the table cannot be used, naming the field and value, or `nil`.
    public var problem: String? {
        guard code.count == 3, code.allSatisfy({ $0.isASCII && $0.isUppercase }) else {
            return "reportingCurrency is \"\(code.prefix(20))\"; it must be an ISO 4217 code such as USD"
        }
        for (currency, rate) in rates.sorted(by: { $0.key < $1.key }) {
            guard currency.count == 3, currency.allSatisfy({ $0.isASCII && $0.isUppercase }) else {
                return "exchangeRates has the key \"\(currency.prefix(20))\"; keys must be ISO 4217 codes"
            }
            guard rate.isFinite, rate > 0 else {
                return "exchangeRates.\(currency) is \(rate); it must be a positive number"
            }
        }
        return nil
    }
}
