import Foundation

/// The tax each storefront's App Store prices include, as the repository ships it
/// (`Resources/storefront-tax-rates.json`, with its source and date): the default of `storefrontTaxRates`, which
/// overrides it storefront by storefront. An estimate — standard rates only (see the file's note).
public struct StorefrontTaxTable: Sendable, Decodable {
    /// When the rates were last checked (`YYYY-MM-DD`).
    public let asOf: String
    /// Where they come from.
    public let source: String
    /// What they leave out.
    public let note: String
    /// Storefront (ISO 3166-1 alpha-3) → the share of the price that is tax on top of the net (0.19 for 19 %).
    public let rates: [String: Double]

    enum CodingKeys: String, CodingKey {
        case asOf = "as_of", source, note, rates
    }

    /// The table the repository ships; empty if its file cannot be read (a test holds that it can).
    public static let shipped: StorefrontTaxTable = {
        guard let url = Bundle.module.url(forResource: "storefront-tax-rates", withExtension: "json"),
            let data = try? Data(contentsOf: url),
            let table = try? JSONDecoder().decode(StorefrontTaxTable.self, from: data)
        else { return StorefrontTaxTable(asOf: "", source: "", note: "", rates: [:]) }
        return table
    }()

    init(asOf: String, source: String, note: String, rates: [String: Double]) {
        self.asOf = asOf
        self.source = source
        self.note = note
        self.rates = rates
    }
}
