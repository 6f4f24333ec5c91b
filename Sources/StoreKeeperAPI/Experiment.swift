public import Foundation

/// An experiment on offerings: customers in its audience who ask for offerings while it runs are enrolled, each
/// in one variant by weight, and shown that variant's offering. The body of `POST /v1/experiments` (without
/// `status` and its dates) and each experiment in the answers.
public struct Experiment: Codable, Sendable, Hashable {
    /// Its name in the project (1–100 characters from `A–Z a–z 0–9 . _ -`).
    public var identifier: String
    /// 2–4 variants, the first the baseline results compare with; weights sum to 100.
    public var variants: [ExperimentVariant]
    /// Who may be enrolled (targeting conditions; absent: everyone who asks for offerings).
    public var audience: TargetingConditions?
    /// `draft` (made, not started), `running` or `stopped`.
    public var status: String
    /// When it was started.
    public var startedAt: Date?
    /// When it was stopped.
    public var stoppedAt: Date?

    /// Makes an experiment.
    public init(
        identifier: String, variants: [ExperimentVariant], audience: TargetingConditions? = nil,
        status: String = "draft", startedAt: Date? = nil, stoppedAt: Date? = nil
    ) {
        self.identifier = identifier
        self.variants = variants
        self.audience = audience
        self.status = status
        self.startedAt = startedAt
        self.stoppedAt = stoppedAt
    }

    /// Decodes an experiment; `status` defaults to `draft`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        identifier = try c.decode(String.self, forKey: .identifier)
        variants = try c.decode([ExperimentVariant].self, forKey: .variants)
        audience = try c.decodeIfPresent(TargetingConditions.self, forKey: .audience)
        status = try c.decodeIfPresent(String.self, forKey: .status) ?? "draft"
        startedAt = try c.decodeIfPresent(Date.self, forKey: .startedAt)
        stoppedAt = try c.decodeIfPresent(Date.self, forKey: .stoppedAt)
    }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case identifier, variants, audience, status, startedAt = "started_at", stoppedAt = "stopped_at"
    }
}

/// One arm of an experiment: the offering its customers are shown and its share of enrolments.
public struct ExperimentVariant: Codable, Sendable, Hashable {
    /// Its name in the experiment (`a`, `b`, `control`…).
    public var identifier: String
    /// The offering its customers are shown.
    public var offeringID: String
    /// Its share of enrolments, in percent (1–99).
    public var weight: Int

    /// Makes a variant.
    public init(identifier: String, offeringID: String, weight: Int) {
        self.identifier = identifier
        self.offeringID = offeringID
        self.weight = weight
    }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case identifier, offeringID = "offering_id", weight
    }
}

/// `POST /v1/experiments`: a new experiment (a draft until started).
public struct ExperimentPost: Codable, Sendable, Hashable {
    /// Its name.
    public var identifier: String
    /// Its variants.
    public var variants: [ExperimentVariant]
    /// Who may be enrolled.
    public var audience: TargetingConditions?

    /// Makes the body.
    public init(identifier: String, variants: [ExperimentVariant], audience: TargetingConditions? = nil) {
        self.identifier = identifier
        self.variants = variants
        self.audience = audience
    }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable { case identifier, variants, audience }
}

/// `GET /v1/experiments`: the project's experiments.
public struct ExperimentsResponse: Codable, Sendable, Hashable {
    /// Every experiment, by identifier.
    public var experiments: [Experiment]

    /// Makes the answer.
    public init(experiments: [Experiment]) { self.experiments = experiments }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable { case experiments }
}

/// In an offerings answer: the experiment the customer is enrolled in and their variant.
public struct ExperimentAssignment: Codable, Sendable, Hashable {
    /// The experiment.
    public var identifier: String
    /// The variant.
    public var variant: String

    /// Makes an assignment.
    public init(identifier: String, variant: String) {
        self.identifier = identifier
        self.variant = variant
    }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable { case identifier, variant }
}

extension Experiment: APIDocumented {
    /// What the object says of itself.
    public static let shape = APIObjectShape(isClosed: true)

    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .identifier: .required(.identifier)
        case .variants: .experimentVariants
        case .audience: .experimentAudience
        case .status: .required(.oneOf(["draft", "running", "stopped"]))
        case .startedAt: .optional(.dateTime)
        case .stoppedAt: .optional(.dateTime)
        }
    }
}

extension ExperimentAssignment: APIDocumented {
    /// What the object says of itself.
    public static let shape = APIObjectShape(isClosed: true)

    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .identifier: .required(.text)
        case .variant: .required(.text)
        }
    }
}

extension ExperimentPost: APIDocumented {
    /// What the object says of itself.
    public static let shape = APIObjectShape(isClosed: true)

    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .identifier: .required(.identifier)
        case .variants: .experimentVariants
        case .audience: .experimentAudience
        }
    }
}

extension ExperimentVariant: APIDocumented {
    /// What the object says of itself.
    public static let shape = APIObjectShape(isClosed: true)

    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .identifier: .required(.identifier)
        case .offeringID: .required(.identifier)
        case .weight: .required(.integer(1, 99).described("Percent of enrolments; the variants' weights sum to 100"))
        }
    }
}

extension ExperimentsResponse: APIDocumented {
    /// What the object says of itself.
    public static let shape = APIObjectShape(isClosed: true)

    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .experiments: .required(.array(of: .type(Experiment.self)))
        }
    }
}

/// The members an experiment and its creation share, described once.
extension APIField {
    /// Who may be enrolled (none: everyone).
    static let experimentAudience = optional(.type(TargetingConditions.self))
    /// The variants, the first the baseline.
    static let experimentVariants = required(
        .array(of: .type(ExperimentVariant.self)).count(2...4).described("The first is the baseline"))
}
