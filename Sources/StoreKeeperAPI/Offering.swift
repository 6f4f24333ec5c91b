/// What a paywall sells: a named set of packages, each a product of the app's catalog, with the paywall's own
/// data. The body of `POST /v1/offerings`, and each offering in the answers.
public struct Offering: Codable, Sendable, Hashable {
    /// Its name in the project: 1–100 characters from `A–Z a–z 0–9 . _ -` (`current` is reserved).
    public var identifier: String
    /// What it is for, for the team (at most 1,000 characters; may be empty).
    public var description: String
    /// What it sells, in the paywall's order: 1–20 packages with distinct identifiers.
    public var packages: [OfferingPackage]
    /// Anything the paywall needs (copy, colours, feature lists): a JSON object of at most 16 KB.
    public var metadata: [String: JSONValue]

    /// Makes an offering.
    public init(
        identifier: String, description: String = "", packages: [OfferingPackage],
        metadata: [String: JSONValue] = [:]
    ) {
        self.identifier = identifier
        self.description = description
        self.packages = packages
        self.metadata = metadata
    }

    /// Decodes an offering: `identifier` and `packages` are required; `description` defaults to empty and
    /// `metadata` to `{}`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        identifier = try c.decode(String.self, forKey: .identifier)
        description = try c.decodeIfPresent(String.self, forKey: .description) ?? ""
        packages = try c.decode([OfferingPackage].self, forKey: .packages)
        metadata = try c.decodeIfPresent([String: JSONValue].self, forKey: .metadata) ?? [:]
    }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable { case identifier, description, packages, metadata }
}

/// One thing an offering sells: a name the paywall knows it by (`monthly`, `annual`, any other) and the App
/// Store product behind it.
public struct OfferingPackage: Codable, Sendable, Hashable {
    /// Its name in the offering: 1–100 characters from `A–Z a–z 0–9 . _ - $`.
    public var identifier: String
    /// The App Store product id.
    public var productID: String

    /// Makes a package.
    public init(identifier: String, productID: String) {
        self.identifier = identifier
        self.productID = productID
    }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable { case identifier, productID = "product_id" }
}

/// `PUT /v1/offerings/{identifier}`: an offering's new content (its identifier is the path's).
public struct OfferingPut: Codable, Sendable, Hashable {
    /// What it is for (default empty).
    public var description: String
    /// What it sells.
    public var packages: [OfferingPackage]
    /// The paywall's data (default `{}`).
    public var metadata: [String: JSONValue]

    /// Makes the body.
    public init(description: String = "", packages: [OfferingPackage], metadata: [String: JSONValue] = [:]) {
        self.description = description
        self.packages = packages
        self.metadata = metadata
    }

    /// Decodes the body: `packages` is required.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        description = try c.decodeIfPresent(String.self, forKey: .description) ?? ""
        packages = try c.decode([OfferingPackage].self, forKey: .packages)
        metadata = try c.decodeIfPresent([String: JSONValue].self, forKey: .metadata) ?? [:]
    }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable { case description, packages, metadata }
}

/// `PUT /v1/offerings/current`: which offering is the project's current one.
public struct CurrentOfferingPut: Codable, Sendable, Hashable {
    /// The offering's identifier.
    public var identifier: String

    /// Makes the body.
    public init(identifier: String) { self.identifier = identifier }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable { case identifier }
}

/// `GET /v1/offerings` (secret key) and `GET /v1/subscribers/{id}/offerings` (public key): the project's offerings
/// and which one the customer should be shown.
public struct OfferingsResponse: Codable, Sendable, Hashable {
    /// The offering to show (the project's current one); absent when none is set.
    public var currentOfferingID: String?
    /// Every offering of the project, by identifier.
    public var offerings: [Offering]
    /// The targeting rule that chose the current offering for this customer; absent when none matched (the
    /// project's current offering) and in `GET /v1/offerings`.
    public var targetingRule: String?
    /// The experiment the customer is enrolled in, whose variant chose the current offering.
    public var experiment: ExperimentAssignment?

    /// Makes the answer.
    public init(
        currentOfferingID: String?, offerings: [Offering], targetingRule: String? = nil,
        experiment: ExperimentAssignment? = nil
    ) {
        self.currentOfferingID = currentOfferingID
        self.offerings = offerings
        self.targetingRule = targetingRule
        self.experiment = experiment
    }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case currentOfferingID = "current_offering_id", offerings, targetingRule = "targeting_rule", experiment
    }
}

extension CurrentOfferingPut: APIDocumented {
    /// What the object says of itself.
    public static let shape = APIObjectShape(isClosed: true)

    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .identifier: .required(.text.length(1...100))
        }
    }
}

extension Offering: APIDocumented {
    /// What the object says of itself.
    public static let shape = APIObjectShape(isClosed: true)

    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .identifier:
            .required(
                .identifier.excluding("current").described(
                    "Its name in the project (current is reserved)"))
        case .description: .offeringDescription
        case .packages: .offeringPackages
        case .metadata: .offeringMetadata
        }
    }
}

extension OfferingPackage: APIDocumented {
    /// What the object says of itself.
    public static let shape = APIObjectShape(isClosed: true)

    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .identifier:
            .required(
                .text.pattern(#"^[A-Za-z0-9._$-]{1,100}$"#).described(
                    "The paywall's name for it: monthly, annual, any other"))
        case .productID:
            .required(
                .identifier.described("An App Store product id of the app's catalog"))
        }
    }
}

extension OfferingPut: APIDocumented {
    /// What the object says of itself.
    public static let shape = APIObjectShape(isClosed: true)

    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .description: .offeringDescription
        case .packages: .offeringPackages
        case .metadata: .offeringMetadata
        }
    }
}

extension OfferingsResponse: APIDocumented {
    /// What the object says of itself.
    public static let shape = APIObjectShape(isClosed: true)

    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .currentOfferingID: .optional(.text.described("The offering to show; absent when none is current"))
        case .offerings: .required(.array(of: .type(Offering.self)))
        case .targetingRule:
            .optional(.text.described("The targeting rule that chose current_offering_id; absent when none matched"))
        case .experiment: .optional(.type(ExperimentAssignment.self))
        }
    }
}

/// The members an offering and its replacement (`PUT /v1/offerings/{id}`) share, described once.
extension APIField {
    /// What the offering is for.
    static let offeringDescription = optional(.text.length(0...1000).described("What it is for, for the team"))
    /// Its packages.
    static let offeringPackages = required(
        .array(of: .type(OfferingPackage.self)).count(1...20).described(
            "In the paywall's order, with distinct identifiers"))
    /// What the paywall needs.
    static let offeringMetadata = optional(
        .anyObject.described(
            "Anything the paywall needs (copy, colours, feature lists): a JSON object of at most 16 KB"))
}
