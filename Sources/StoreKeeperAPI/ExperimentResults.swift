/// `GET /v1/experiments/{identifier}/results`: what each variant's enrolled customers did since enrolment.
public struct ExperimentResults: Codable, Sendable, Hashable {
    /// The experiment.
    public var identifier: String
    /// Its status.
    public var status: String
    /// The currency money is reported in (the reporting currency, or the prices' own when none is configured).
    public var currency: String?
    /// Each variant, the baseline first.
    public var variants: [VariantResults]

    /// Makes the answer.
    public init(identifier: String, status: String, currency: String?, variants: [VariantResults]) {
        self.identifier = identifier
        self.status = status
        self.currency = currency
        self.variants = variants
    }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable { case identifier, status, currency, variants }
}

/// One variant's results.
public struct VariantResults: Codable, Sendable, Hashable {
    /// The variant.
    public var identifier: String
    /// Its offering.
    public var offeringID: String
    /// Customers enrolled in it whom the server holds evidence for (a purchase, a receipt or an app transaction):
    /// the customers every other count and rate is of.
    public var enrolled: Int
    /// Ids enrolled in it (they asked for offerings) whom the server holds no evidence for, counted apart: anyone
    /// holding the app's public key can make such ids, so they move no result.
    public var enrolledWithoutEvidence: Int
    /// Of them, those who started a free trial after enrolling.
    public var trials: Int
    /// Of them, those with a paid period that began within 30 days of enrolling.
    public var paidConversions: Int
    /// `paid_conversions / enrolled`.
    public var conversionRate: Double
    /// Revenue since enrolment (net of refunds) per enrolled customer.
    public var revenuePerCustomer: Double
    /// Estimated proceeds since enrolment (net of refunds) per enrolled customer.
    public var proceedsPerCustomer: Double
    /// Paid periods refunded since enrolment.
    public var refunds: Int
    /// Conversion rate compared with the baseline (absent for the baseline itself).
    public var conversionVersusBaseline: Comparison?
    /// The probability that this variant's conversion rate is the highest.
    public var conversionProbabilityBest: Double
    /// Proceeds per customer compared with the baseline (absent for the baseline itself).
    public var proceedsVersusBaseline: Comparison?
    /// The probability that this variant's proceeds per customer are the highest.
    public var proceedsProbabilityBest: Double

    /// Makes a variant's results.
    public init(
        identifier: String, offeringID: String, enrolled: Int, trials: Int, paidConversions: Int,
        conversionRate: Double, revenuePerCustomer: Double, proceedsPerCustomer: Double, refunds: Int,
        conversionVersusBaseline: Comparison?, conversionProbabilityBest: Double, proceedsVersusBaseline: Comparison?,
        proceedsProbabilityBest: Double, enrolledWithoutEvidence: Int = 0
    ) {
        self.enrolledWithoutEvidence = enrolledWithoutEvidence
        self.identifier = identifier
        self.offeringID = offeringID
        self.enrolled = enrolled
        self.trials = trials
        self.paidConversions = paidConversions
        self.conversionRate = conversionRate
        self.revenuePerCustomer = revenuePerCustomer
        self.proceedsPerCustomer = proceedsPerCustomer
        self.refunds = refunds
        self.conversionVersusBaseline = conversionVersusBaseline
        self.conversionProbabilityBest = conversionProbabilityBest
        self.proceedsVersusBaseline = proceedsVersusBaseline
        self.proceedsProbabilityBest = proceedsProbabilityBest
    }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case identifier, offeringID = "offering_id", enrolled, trials, paidConversions = "paid_conversions"
        case enrolledWithoutEvidence = "enrolled_without_evidence"
        case conversionRate = "conversion_rate", revenuePerCustomer = "revenue_per_customer"
        case proceedsPerCustomer = "proceeds_per_customer", refunds
        case conversionVersusBaseline = "conversion_vs_baseline"
        case conversionProbabilityBest = "conversion_probability_best"
        case proceedsVersusBaseline = "proceeds_vs_baseline", proceedsProbabilityBest = "proceeds_probability_best"
    }
}

/// A variant's value minus the baseline's, with a 95 % interval.
public struct Comparison: Codable, Sendable, Hashable {
    /// The difference.
    public var difference: Double
    /// The interval's low end.
    public var low: Double
    /// The interval's high end.
    public var high: Double

    /// Makes a comparison.
    public init(difference: Double, low: Double, high: Double) {
        self.difference = difference
        self.low = low
        self.high = high
    }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable { case difference, low, high }
}

extension Comparison: APIDocumented {
    /// What the object says of itself.
    public static let shape = APIObjectShape(isClosed: true)

    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .difference: .required(.number)
        case .low: .required(.number.described("95 % interval"))
        case .high: .required(.number)
        }
    }
}

extension ExperimentResults: APIDocumented {
    /// What the object says of itself.
    public static let shape = APIObjectShape(isClosed: true)

    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .identifier: .required(.text)
        case .status: .required(.oneOf(["draft", "running", "stopped"]))
        case .currency: .optional(.text.described("The reporting currency; absent: the prices' own"))
        case .variants: .required(.array(of: .type(VariantResults.self)))
        }
    }
}

extension VariantResults: APIDocumented {
    /// What the object says of itself.
    public static let shape = APIObjectShape(isClosed: true)

    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .identifier: .required(.text)
        case .offeringID: .required(.text)
        case .enrolled:
            .required(
                .integer.described(
                    "Enrolled customers the server holds evidence for (a purchase, a receipt or an app transaction); every other count and rate is of them"
                ))
        case .trials: .required(.integer)
        case .paidConversions: .required(.integer.described("A paid period began within 30 days of enrolment"))
        case .enrolledWithoutEvidence:
            .required(.integer.described("Enrolled ids the server holds no evidence for, counted apart"))
        case .conversionRate: .required(.number)
        case .revenuePerCustomer: .required(.number)
        case .proceedsPerCustomer: .required(.number)
        case .refunds: .required(.integer)
        case .conversionVersusBaseline: .optional(.type(Comparison.self))
        case .conversionProbabilityBest: .required(.number)
        case .proceedsVersusBaseline: .optional(.type(Comparison.self))
        case .proceedsProbabilityBest: .required(.number)
        }
    }
}
