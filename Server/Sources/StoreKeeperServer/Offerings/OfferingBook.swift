import Foundation
import StoreKeeperAPI
import StoreKeeperStorage

/// A project's offerings and targeting rules as its settings hold them, with each possible answer to
/// `GET /v1/subscribers/{id}/offerings` encoded once: the project's current offering, and each rule's.
struct OfferingBook: Sendable {
    /// The setting kind of an offering (named by its identifier).
    static let offeringKind = "offering"
    /// The setting kind of the current offering's choice (one per project, named `""`).
    static let currentKind = "current_offering"
    /// The setting kind of the targeting rules (one list per project, named `""`).
    static let targetingKind = "targeting"
    /// The setting kind of an experiment (named by its identifier).
    static let experimentKind = "experiment"

    /// Every offering, by identifier.
    let offerings: [Offering]
    /// The current offering's identifier, when it is set and the offering exists.
    let currentID: String?
    /// The targeting rules, in order (a rule whose offering is gone is left out).
    let rules: [TargetingRule]
    /// The answer when no rule matches, as JSON.
    let answer: [UInt8]
    /// The answer when a rule matches, by the rule's identifier.
    let ruleAnswers: [String: [UInt8]]
    /// Every experiment, by identifier.
    let experiments: [Experiment]
    /// The running experiment, if one runs.
    let running: Experiment?
    /// The running experiment's answers, by variant.
    let variantAnswers: [String: [UInt8]]

    /// The book of `settings` (a project's).
    init(_ settings: [ProjectSetting]) throws {
        let decoder = APICoding.decoder()
        let encoder = APICoding.encoder()
        let offerings = try settings.filter { $0.kind == Self.offeringKind }.map {
            try decoder.decode(Offering.self, from: Data($0.body.utf8))
        }.sorted { $0.identifier < $1.identifier }
        let names = Set(offerings.map(\.identifier))
        let chosen = try settings.first { $0.kind == Self.currentKind }.map {
            try decoder.decode(CurrentOfferingPut.self, from: Data($0.body.utf8)).identifier
        }
        // A current offering removed by a racing delete on another replica reads as none.
        let currentID = chosen.flatMap { names.contains($0) ? $0 : nil }
        let rules =
            try settings.first { $0.kind == Self.targetingKind }.map {
                try decoder.decode(TargetingRules.self, from: Data($0.body.utf8)).rules
            }?.filter { names.contains($0.offeringID) } ?? []
        self.offerings = offerings
        self.currentID = currentID
        self.rules = rules
        answer = Array(try encoder.encode(OfferingsResponse(currentOfferingID: currentID, offerings: offerings)))
        var ruleAnswers: [String: [UInt8]] = [:]
        for rule in rules {
            ruleAnswers[rule.identifier] = Array(
                try encoder.encode(
                    OfferingsResponse(
                        currentOfferingID: rule.offeringID, offerings: offerings, targetingRule: rule.identifier)))
        }
        self.ruleAnswers = ruleAnswers
        experiments = try settings.filter { $0.kind == Self.experimentKind }.map {
            try decoder.decode(Experiment.self, from: Data($0.body.utf8))
        }.sorted { $0.identifier < $1.identifier }
        running = experiments.first { $0.status == "running" }
        var variantAnswers: [String: [UInt8]] = [:]
        for variant in running?.variants ?? [] where names.contains(variant.offeringID) {
            variantAnswers[variant.identifier] = Array(
                try encoder.encode(
                    OfferingsResponse(
                        currentOfferingID: variant.offeringID, offerings: offerings,
                        experiment: ExperimentAssignment(
                            identifier: running?.identifier ?? "", variant: variant.identifier))))
        }
        self.variantAnswers = variantAnswers
    }

    /// The stored setting of `offering` in `projectID`.
    static func setting(_ offering: Offering, projectID: String, at now: Date) throws -> ProjectSetting {
        ProjectSetting(
            projectID: projectID, kind: offeringKind, name: offering.identifier,
            body: String(decoding: try APICoding.encoder().encode(offering), as: UTF8.self), updatedAt: now)
    }

    /// The stored setting that makes `identifier` the current offering of `projectID`.
    static func currentSetting(_ identifier: String, projectID: String, at now: Date) throws -> ProjectSetting {
        let choice = try APICoding.encoder().encode(CurrentOfferingPut(identifier: identifier))
        return ProjectSetting(
            projectID: projectID, kind: currentKind, name: "", body: String(decoding: choice, as: UTF8.self),
            updatedAt: now)
    }

    /// The offerings and the current one.
    var response: OfferingsResponse { OfferingsResponse(currentOfferingID: currentID, offerings: offerings) }

    /// The offering of `identifier`, if the project has it.
    func offering(_ identifier: String) -> Offering? { offerings.first { $0.identifier == identifier } }

    /// The answer for a customer: the variant's of the running experiment when they are in its audience
    /// (`enrol` puts them in one, or answers `nil`: not enrolled), else the first matching targeting rule's, else
    /// the project's.
    func answer(for context: CustomerContext, enrol: (Experiment) async throws -> String?) async throws -> [UInt8] {
        guard running != nil || !rules.isEmpty else { return answer }
        var matcher = TargetingMatcher(context)
        if let running, try await matcher.matches(running.audience ?? TargetingConditions()),
            let variant = try await enrol(running)
        {
            return variantAnswers[variant] ?? answer
        }
        guard let rule = try await matcher.first(of: rules) else { return answer }
        return ruleAnswers[rule.identifier] ?? answer
    }

    /// Where `identifier` is used: by a targeting rule or by an experiment not stopped (a sentence), or `nil`.
    func use(of identifier: String) -> String? {
        if let rule = rules.first(where: { $0.offeringID == identifier }) {
            return "targeting rule \"\(rule.identifier)\""
        }
        if let experiment = experiments.first(where: {
            $0.status != "stopped" && $0.variants.contains { $0.offeringID == identifier }
        }) {
            return "experiment \"\(experiment.identifier)\""
        }
        return nil
    }
}
