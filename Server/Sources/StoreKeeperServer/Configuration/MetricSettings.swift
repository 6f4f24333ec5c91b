import Foundation
public import SubscriptionMetrics

/// What the metrics answer in, and who may read Prometheus' `/metrics`. In the file these are top-level keys
/// (`metricsToken`, `reportingCurrency`, `exchangeRates`).
public struct MetricSettings: Sendable {
    /// When set, `GET /metrics` answers only requests with `Authorization: Bearer <metricsToken>` (at least
    /// ``ServerConfiguration/minimumKeyLength`` characters; never logged). Default none: `/metrics` is open, for a
    /// server that listens on loopback or whose proxy does not forward it (docs/production.md, Security).
    public var token: String?
    /// Report money in the metrics (`mrr`, refund amounts) also in this currency (ISO 4217), each currency
    /// converted at ``exchangeRates``; amounts in a currency without a rate are left out of that series. Default
    /// none.
    public var reportingCurrency: String?
    /// What one unit of each currency is worth in ``reportingCurrency`` (`{"EUR": 1.08, "JPY": 0.0067}`).
    /// Default none.
    public var exchangeRates: [String: Double] = [:]
    /// Whether the developer is in the App Store Small Business Program (`smallBusinessProgram`): Apple's
    /// commission is then 15 % on every period, for `proceeds`. Default false.
    public var smallBusinessProgram = false
    /// The sales tax or VAT each storefront's prices include (`storefrontTaxRates`, `{"DEU": 0.19}`), taken out
    /// of `proceeds`: each overrides the shipped table's rate for its storefront (``StorefrontTaxTable``); a
    /// storefront in neither counts as pricing before tax. Default none (the table alone).
    public var storefrontTaxRates: [String: Double] = [:]

    /// Whether every write keeps the metric rollups the metrics are answered from (`metricRollups`). Default
    /// true; off, each metric query reads the project's timelines (and rollups are built again when turned back
    /// on).
    public var rollups = true

    /// How proceeds are estimated from these settings: the shipped tax table, overridden by
    /// ``storefrontTaxRates``.
    public var proceeds: ProceedsRules {
        ProceedsRules(
            smallBusinessProgram: smallBusinessProgram,
            taxRates: StorefrontTaxTable.shipped.rates.merging(storefrontTaxRates) { _, configured in configured })
    }

    /// The defaults.
    public init() {}

    /// The reporting currency with its rates, when one is configured.
    public var reporting: ReportingCurrency? {
        reportingCurrency.map { ReportingCurrency(code: $0, rates: exchangeRates) }
    }

    /// Refuses a short token, a bad currency or rate, or rates without a currency, naming the key.
    func check() throws(ConfigurationError) {
        if let problem = reporting?.problem { throw ConfigurationError(problem) }
        if let problem = proceeds.problem { throw ConfigurationError(problem) }
        if reportingCurrency == nil, !exchangeRates.isEmpty {
            throw ConfigurationError(
                "exchangeRates is set without reportingCurrency: name the currency they convert to")
        }
        if let token, token.count < ServerConfiguration.minimumKeyLength {
            throw ConfigurationError(
                "metricsToken has \(token.count) characters; at least \(ServerConfiguration.minimumKeyLength) are "
                    + "required (storekeeper keys new secret prints one)")
        }
    }
}
