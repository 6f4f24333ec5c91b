import Foundation
import StoreKeeperAPI
import StoreKeeperStorage
import SubscriptionEngine
import SubscriptionMetrics

/// Experiments apart from HTTP: the owner makes, starts and stops a project's experiments and reads their
/// results; enrolment itself happens where offerings are answered (``Enroller``). Every call acts inside the
/// caller's project.
struct ExperimentService: Sendable {
    let store: any EvidenceStore
    /// Where enrolments and tallies are kept.
    let experiments: any ExperimentStore
    /// Where the experiments themselves are kept (a project setting each).
    let settings: any SettingStore
    let offerings: OfferingService
    let reporting: ReportingCurrency?
    let proceeds: ProceedsRules
    let now: @Sendable () -> Date

    /// `POST /v1/experiments`: a draft.
    func create(_ post: ExperimentPost, bundleID: String) async throws -> Experiment {
        let project = try offerings.apps.project(bundleID)
        let book = try await offerings.book(bundleID: bundleID)
        let experiment = try ExperimentCheck.checked(post, offerings: Set(book.offerings.map(\.identifier)))
        guard book.experiments.count < ExperimentCheck.maximumExperiments else {
            throw ServiceError(
                .conflict, .tooManyExperiments,
                "a project has at most \(ExperimentCheck.maximumExperiments) experiments")
        }
        guard try await save(experiment, project, mode: .create) else {
            throw ServiceError(.conflict, .experimentExists, "experiment \"\(experiment.identifier)\" exists")
        }
        return experiment
    }

    /// `GET /v1/experiments`.
    func list(bundleID: String) async throws -> ExperimentsResponse {
        ExperimentsResponse(experiments: try await offerings.book(bundleID: bundleID).experiments)
    }

    /// `GET /v1/experiments/{identifier}`.
    func experiment(_ identifier: String, bundleID: String) async throws -> Experiment {
        guard
            let experiment = try await offerings.book(bundleID: bundleID).experiments.first(where: {
                $0.identifier == identifier
            })
        else {
            throw ServiceError(
                .notFound, .experimentNotFound, "no experiment \"\(identifier.prefix(100))\" in this project")
        }
        return experiment
    }

    /// `POST /v1/experiments/{identifier}/start`: a draft starts enrolling, when no other experiment runs.
    func start(_ identifier: String, bundleID: String) async throws -> Experiment {
        var experiment = try await experiment(identifier, bundleID: bundleID)
        guard experiment.status == "draft" else {
            throw ServiceError(
                .conflict, .experimentState, "experiment \"\(identifier)\" is \(experiment.status); only a draft starts"
            )
        }
        if let running = try await offerings.book(bundleID: bundleID).running {
            throw ServiceError(
                .conflict, .experimentState,
                "experiment \"\(running.identifier)\" is running; one experiment runs at a time (stop it first)")
        }
        experiment.status = "running"
        experiment.startedAt = now()
        _ = try await save(experiment, try offerings.apps.project(bundleID), mode: .replace)
        return experiment
    }

    /// `POST /v1/experiments/{identifier}/stop`: a running experiment stops enrolling; its results stay.
    func stop(_ identifier: String, bundleID: String) async throws -> Experiment {
        var experiment = try await experiment(identifier, bundleID: bundleID)
        guard experiment.status == "running" else {
            throw ServiceError(
                .conflict, .experimentState,
                "experiment \"\(identifier)\" is \(experiment.status); only a running one stops")
        }
        experiment.status = "stopped"
        experiment.stoppedAt = now()
        _ = try await save(experiment, try offerings.apps.project(bundleID), mode: .replace)
        return experiment
    }

    func save(_ experiment: Experiment, _ project: ProjectScope, mode: SettingWrite) async throws -> Bool {
        try await settings.saveProjectSetting(
            ProjectSetting(
                projectID: project.id, kind: OfferingBook.experimentKind, name: experiment.identifier,
                body: String(decoding: try APICoding.encoder().encode(experiment), as: UTF8.self), updatedAt: now()),
            mode: mode)
    }

    /// `GET /v1/experiments/{identifier}/results`: each enrolled customer (merged ids counted once, at their
    /// earliest enrolment) with what they did since, by variant, and how each variant compares with the first —
    /// from the experiment's tally (``ExperimentTallier``), so the cost does not grow with enrolments.
    func results(_ identifier: String, bundleID: String) async throws -> ExperimentResults {
        let experiment = try await experiment(identifier, bundleID: bundleID)
        let tally = try await tallier.tally(identifier, project: try offerings.apps.project(bundleID))
        return Self.results(experiment, tallies: tally.variants, currency: reporting?.code)
    }

    /// The results and the enrolment chart (the dashboard's).
    func report(_ identifier: String, bundleID: String) async throws -> (
        results: ExperimentResults, enrolment: MetricResponse
    ) {
        let experiment = try await experiment(identifier, bundleID: bundleID)
        let project = try offerings.apps.project(bundleID)
        let tally = try await tallier.tally(identifier, project: project)
        let days = try await experiments.enrolmentDays(projectID: project.id, experiment: identifier)
        return (
            Self.results(experiment, tallies: tally.variants, currency: reporting?.code),
            Self.enrolment(experiment, days: days, now: now())
        )
    }

    /// What reads and keeps the experiments' tallies.
    var tallier: ExperimentTallier {
        ExperimentTallier(store: store, experiments: experiments, reporting: reporting, proceeds: proceeds, now: now)
    }

    /// How many customers each variant had enrolled by the end of each day since the experiment started (the
    /// dashboard's chart), from the database's counts per day.
    static func enrolment(_ experiment: Experiment, days counts: [EnrolmentDay], now: Date) -> MetricResponse {
        let earliest = counts.map(\.day).min().map { Date(timeIntervalSince1970: Double($0) * 86_400) }
        let first = MetricInterval.day.start(of: experiment.startedAt ?? earliest ?? now)
        let last = max(first, experiment.stoppedAt ?? now)
        let days = MetricInterval.day.buckets(from: first, to: last.addingTimeInterval(1))
        let series = experiment.variants.map { variant in
            let theirs = counts.filter { $0.variant == variant.identifier }.sorted { $0.day < $1.day }
            var index = 0
            var enrolled = 0
            let points = days.map { day -> MetricPoint in
                // A day's enrolments are all before the end of that day and of every later one.
                while index < theirs.count, Double(theirs[index].day) * 86_400 < day.end.timeIntervalSince1970 {
                    enrolled += theirs[index].count
                    index += 1
                }
                return MetricPoint(start: day.start, value: Double(enrolled))
            }
            return MetricSeriesBody(key: variant.identifier, points: points)
        }
        return MetricResponse(name: "experiment_enrolment", interval: "day", series: series)
    }

    /// The results of each variant's sums (by variant identifier; a variant without any counts as empty).
    static func results(_ experiment: Experiment, tallies: [String: VariantTally], currency: String?)
        -> ExperimentResults
    {
        let groups = experiment.variants.map { tallies[$0.identifier] ?? VariantTally() }
        let conversion = ExperimentStatistics.conversion(
            conversions: groups.map { Int($0.conversions) }, enrolled: groups.map { Int($0.enrolled) })
        let money = ExperimentStatistics.mean(
            samples: groups.map {
                ExperimentStatistics.Sample(
                    count: Int($0.enrolled), sum: Double($0.proceedsMicros) / 1_000_000, squares: $0.proceedsSquares)
            })
        func comparison(_ verdict: ExperimentStatistics.Verdict) -> Comparison? {
            verdict.difference.map { Comparison(difference: $0.value, low: $0.low, high: $0.high) }
        }
        let variants = experiment.variants.enumerated().map { index, variant in
            let group = groups[index]
            let count = Double(max(1, group.enrolled))
            return VariantResults(
                identifier: variant.identifier, offeringID: variant.offeringID, enrolled: Int(group.enrolled),
                trials: Int(group.trials), paidConversions: Int(group.conversions),
                conversionRate: Double(group.conversions) / count,
                revenuePerCustomer: Double(group.revenueMicros) / 1_000_000 / count,
                proceedsPerCustomer: Double(group.proceedsMicros) / 1_000_000 / count,
                refunds: Int(group.refunds),
                conversionVersusBaseline: comparison(conversion[index]),
                conversionProbabilityBest: conversion[index].probabilityBest,
                proceedsVersusBaseline: comparison(money[index]), proceedsProbabilityBest: money[index].probabilityBest,
                enrolledWithoutEvidence: Int(group.withoutEvidence))
        }
        return ExperimentResults(
            identifier: experiment.identifier, status: experiment.status, currency: currency, variants: variants)
    }
}
