public import Foundation

/// Per-day metric inputs, so a metric costs the same at any number of subscribers: each customer contributes
/// numbers keyed by ``RollupKey`` (metric, UTC day, every split dimension, series, input), a project's rollups are
/// the sum of its customers' contributions, and a write adds the difference between a customer's old and new
/// contribution. A query reads the summed rows and lays them into its buckets (``answer(_:query:)``).
///
/// A contribution is what ``MetricAccumulator`` counts of the customer over days, with a clock that never stops
/// (everything the evidence says has happened has), keyed by dimensions instead of one split. For every bucket that
/// ended by the start of the query's UTC day the answer equals the full computation exactly; the bucket holding the
/// query's day is what the evidence says of the whole day.
public enum MetricRollup {
    /// The metrics answered from rollups (``MetricName/arr`` from ``MetricName/mrr``'s rows).
    public static let metrics: [MetricName] = [
        .activeSubscriptions, .activeTrials, .mrr, .newSubscriptions, .renewals, .churn, .churnRate, .refunds,
        .revenue, .refundRate, .graceRecoveries, .billingRecoveries, .reactivations, .proceeds, .trialConversion,
        .cohorts, .realizedLTV, .conversionToPaying, .mrrMovement,
    ]

    /// The splits MRR movement's rows are kept for (a customer's movement is classified within what the query
    /// keeps apart; by environment is by none, the environment being kept apart always), all counted in one pass.
    static let movementSplits: [MetricSplit?] = [nil, .product, .storefront, .offerType]

    /// The metrics whose customers are counted by their first period in the counted environments: their rows are
    /// kept per set of environments a query can ask for (one, or all), named at the front of the series
    /// (``scopeSeparator``).
    public static let environmentScoped: Set<MetricName> = [.realizedLTV, .conversionToPaying]

    /// Every environment, as a query asks for all of them (`environment=all`).
    public static let allEnvironments: Set<String> = ["Production", "Sandbox", "Xcode"]

    /// The name of the environments a query counts: the one, or `all`.
    public static func scope(_ environments: Set<String>) -> String {
        environments.count == 1 ? environments.first ?? "all" : "all"
    }

    /// Separates an environment scope from the rest of a series (``environmentScoped``).
    static let scopeSeparator = "\u{1C}"

    /// The metrics whose rows are also kept with every dimension collapsed to `*` (a cohort or a window per series
    /// multiplies their rows): a query without a split reads only those, one with a split only the others.
    public static let collapsed: Set<MetricName> = [.realizedLTV, .conversionToPaying, .cohorts]

    /// Whether `name` is answered from rollups.
    public static func answers(_ name: MetricName) -> Bool { name == .arr || metrics.contains(name) }

    /// The UTC day holding `date`, counted from 1970-01-01.
    public static func day(of date: Date) -> Int { Int((date.timeIntervalSince1970 / 86_400).rounded(.down)) }

    /// The start of a UTC day.
    public static func start(ofDay day: Int) -> Date { Date(timeIntervalSince1970: Double(day) * 86_400) }

    /// What a project's rollups were counted by: how values are counted (``counting``) and the proceeds rules. A
    /// store counting by another mark counts every customer again.
    public static func buildMark(_ rules: ProceedsRules) -> String { counting + " " + rules.fingerprint }

    /// How values are counted, named so rollups counted otherwise are counted again: `2` rounds each addition to
    /// millionths (``MetricAccumulator/weighted(_:)``).
    static let counting = "counting=2"

    /// How many stored units make one: rollups hold whole millionths (of a subscription, of a currency unit), so
    /// adding and taking away a contribution leaves no rounding behind and ``difference(from:to:)`` is exact.
    public static let scale = 1_000_000.0

    /// One customer's contribution: every rollup value its timelines add, in millionths (``scale``), zeros left
    /// out.
    /// - Parameters:
    ///   - timelines: The customer's timelines (``SubscriptionTimeline/timelines(_:)``), from its whole evidence.
    ///   - proceeds: How proceeds are estimated (a contribution holds the proceeds these rules give).
    ///   - fromDay: Only the rows of this UTC day and later (each exactly as the whole contribution has it): what a
    ///     write computes when nothing before that day changed (``firstChange(from:to:)``).
    /// - Returns: The values by key.
    public static func contribution(
        _ timelines: [SubscriptionTimeline], proceeds: ProceedsRules = ProceedsRules(), fromDay: Int? = nil
    ) -> [RollupKey: Int64] {
        counted(from: [], to: timelines, proceeds: proceeds, fromDay: fromDay, metrics: nil)
    }

    /// The contribution of `new` less that of `old` (``contribution(_:proceeds:fromDay:)`` of each; only
    /// `counted`'s metrics when given), counted in a few passes of one computation each (``values``): both sides
    /// for the metrics a renewing day does not touch, each side for those it does, one clocked pass per renewing
    /// day. The old timelines' additions weigh -1 (``MetricAccumulator/weight``). Every addition is whole
    /// millionths, so this is exactly the difference of the two contributions.
    static func counted(
        from old: [SubscriptionTimeline], to new: [SubscriptionTimeline], proceeds: ProceedsRules, fromDay: Int?,
        metrics counted: Set<MetricName>?
    ) -> [RollupKey: Int64] {
        let metrics = counted.map { counted in Self.metrics.filter(counted.contains) } ?? Self.metrics
        let timelines = old + new
        let periods = timelines.flatMap(\.periods)
        guard !periods.isEmpty else { return [:] }
        let dates = periods.flatMap { [$0.start, $0.accessEnd, $0.expiresAt] + ($0.refundedAt.map { [$0] } ?? []) }
        // The days on which a count can change: each date's day and the two after it (a snapshot taken at a day's
        // start, a projected renewal's end), not the days between.
        var chosen = Set<Int>()
        for date in dates + timelines.flatMap(\.graceEnds) {
            let day = day(of: date)
            chosen.formUnion([day, day + 1, day + 2])
        }
        let days = chosen.sorted()
        guard days.last.map({ $0 >= fromDay ?? $0 }) ?? false else { return [:] }
        let environments = Set(periods.map(\.environment))
        // A customer in one environment counts the same in it as in all of them: one pass, named for both.
        let passes: [(counted: Set<String>, names: [String])] =
            environments.count == 1 && allEnvironments.isSuperset(of: environments)
            ? [(environments, [scope(environments), scope(allEnvironments)])]
            : (environments.map { Set([$0]) } + [allEnvironments]).map { ($0, [scope($0)]) }
        var parser = RollupKeyParser()
        let (oldCoded, newCoded) = (parser.coded(old), parser.coded(new))
        // Every row of the metrics, counted in one computation (per environment scope where a metric needs them).
        func rows(_ metrics: [MetricName], clock: Date? = nil, from: Int? = nil, sides: Sides = .both)
            -> [(RollupRow, Double)]
        {
            guard !metrics.isEmpty else { return [] }
            let fromDay = from ?? fromDay
            let (oldCoded, newCoded) = (sides.old ? oldCoded : [], sides.new ? newCoded : [])
            let scoped = metrics.filter(environmentScoped.contains)
            let plain = scoped.isEmpty ? metrics : metrics.filter { !environmentScoped.contains($0) }
            var result =
                plain.isEmpty
                ? []
                : values(
                    plain, from: oldCoded, to: newCoded, days: days, from: fromDay, proceeds: proceeds, clock: clock,
                    environments: environments, parser: &parser)
            guard !scoped.isEmpty else { return result }
            for (counted, names) in passes {
                let found = values(
                    scoped, from: oldCoded, to: newCoded, days: days, from: fromDay, proceeds: proceeds, clock: clock,
                    environments: counted, parser: &parser)
                for name in names {
                    let scope = parser.scope(name)
                    for (row, value) in found {
                        var scoped = row
                        scoped.scope = scope
                        result.append((scoped, value))
                    }
                }
            }
            return result
        }
        // On a day a subscription set to renew would end, a query of that day counts it as renewing: what changes
        // is kept apart, added only when the row's day is the query's.
        // Each side's days, and those on which it renews a free trial (only then does a trial metric change).
        var renewingDays: [Int: Date] = [:]
        var renewing: [(days: Set<Int>, trials: Set<Int>)] = []
        for side in [old, new] {
            var found: (days: Set<Int>, trials: Set<Int>) = ([], [])
            for timeline in side {
                guard let last = MetricAccumulator.renewingLast(timeline) else { continue }
                let end = timeline.periods[last].accessEnd
                renewingDays[day(of: end)] = min(renewingDays[day(of: end)] ?? end, end)
                found.days.insert(day(of: end))
                if timeline.periods[last].isTrial { found.trials.insert(day(of: end)) }
            }
            renewing.append(found)
        }
        let renews = renewingDays.keys.contains { $0 >= fromDay ?? $0 }
        // Rows of different metrics, scopes and columns never share a key: collected as a list, summed once. The
        // renewing metrics are counted per side when a day renews in the window, so each side's own rows are at
        // hand for its renewing days (the two sides' rows sum to the one pass's exactly: whole millionths).
        let counting = metrics.filter { mayCount($0, timelines, fromDay: fromDay) && !countsSame($0, old, new) }
        let bySide = renews ? counting.filter(MetricAccumulator.renewingMetrics.contains) : []
        var result = rows(bySide.isEmpty ? counting : counting.filter { !bySide.contains($0) })
        let sides = (
            old: old.isEmpty ? [] : rows(bySide, sides: Sides(old: true, new: false)),
            new: new.isEmpty ? [] : rows(bySide, sides: Sides(old: false, new: true))
        )
        result += sides.old + sides.new
        let trialOnly: Set<MetricName> = [.activeTrials, .trialConversion]
        for (renewingDay, clock) in renewingDays where renewingDay >= fromDay ?? renewingDay {
            // The renewing metrics by the sides renewing that day (a side's renewing pass is its own: only what
            // renews there changes).
            var groups: [Sides: [MetricName]] = [:]
            for metric in metrics where MetricAccumulator.renewingMetrics.contains(metric) {
                let counts = renewing.map {
                    $0.days.contains(renewingDay) && (!trialOnly.contains(metric) || $0.trials.contains(renewingDay))
                }
                let sides = Sides(old: counts[0], new: counts[1])
                guard sides.old || sides.new else { continue }
                groups[sides, default: []].append(metric)
            }
            for (renewingSides, group) in groups {
                // Only the renewing day's rows are kept: counted from it on (each exactly as from any earlier day).
                var changes: [RollupRow: Double] = [:]
                // The renewing sides' own ordinary rows (metrics not counted by side above count them in a pass
                // of their own).
                let counted = Set(group.filter(bySide.contains))
                let plain =
                    (renewingSides.old ? sides.old : []) + (renewingSides.new ? sides.new : [])
                    + rows(group.filter { !counted.contains($0) }, from: renewingDay, sides: renewingSides)
                let members = Set(group)
                for (key, value) in plain where key.day == renewingDay && members.contains(key.metric) {
                    changes[key, default: 0] -= value
                }
                for (key, value) in rows(group, clock: clock, from: renewingDay, sides: renewingSides)
                where key.day == renewingDay {
                    changes[key, default: 0] += value
                }
                for (key, change) in changes where change != 0 {
                    guard let column = key.column.onTheDay else { continue }
                    var onTheDay = key
                    onTheDay.column = column
                    result.append((onTheDay, change))
                }
            }
        }
        // Metrics with many series per day also keep their rows with every dimension collapsed (`*`): what a query
        // without a split reads, however many products, storefronts and offers a project has.
        var wholes: [RollupRow: Double] = [:]
        for (row, value) in result where collapsed.contains(row.metric) {
            var whole = row
            whole.name = parser.whole(row.name)
            wholes[whole, default: 0] += value
        }
        result += wholes.map { ($0.key, $0.value) }
        // Every addition is whole millionths: rounding each row before summing loses nothing.
        var summed: [RollupRow: Int64] = [:]
        summed.reserveCapacity(result.count)
        for (row, value) in result { summed[row, default: 0] += Int64((value * scale).rounded()) }
        var stored: [RollupKey: Int64] = [:]
        stored.reserveCapacity(summed.count)
        for (row, value) in summed where value != 0 { stored[parser.key(row)] = value }
        return stored
    }

    /// Which of a difference's two sides a pass counts.
    struct Sides: Hashable {
        var old: Bool
        var new: Bool
        static let both = Sides(old: true, new: true)
    }

    /// What ``MetricAccumulator`` counts of `new` less `old` for each of `metrics` on the chosen `days` (those from
    /// `from` on), in one computation, as rows with distinct keys: with a clock that never stops, or read by the
    /// day at `clock` (``MetricQuery/dayClock``); counting the periods in `environments`.
    static func values(
        _ metrics: [MetricName], from old: [SubscriptionTimeline], to new: [SubscriptionTimeline], days: [Int],
        from: Int? = nil,
        proceeds: ProceedsRules, clock: Date? = nil, environments: Set<String>, parser: inout RollupKeyParser
    ) -> [(RollupRow, Double)] {
        var query = MetricQuery(
            name: metrics[0], from: start(ofDay: days[0]), to: start(ofDay: (days.last ?? days[0]) + 1),
            interval: .day, environments: environments, now: clock ?? .distantFuture)
        query.proceeds = proceeds
        query.dayClock = clock != nil
        var accumulator = MetricAccumulator(query, days: days, before: from)
        // The day of each bucket; `nil` for the leading one holding the days before `from`.
        let bucketDays: [Int?] =
            accumulator.buckets.count == days.count ? days : [nil] + days.filter { $0 >= from ?? $0 }
        accumulator.keyedByDimensions = true
        // The contribution's series numbering moves into the pass and back (never copied).
        accumulator.cells = RollupCells(capacity: 64 * metrics.count, names: parser.names)
        parser.names = SeriesNames()
        accumulator.movementNumbers = parser.movements
        for metric in metrics {
            accumulator.query.name = metric
            if !old.isEmpty {
                accumulator.weight = -1
                accumulator.add(timelines: old)
                accumulator.weight = 1
            }
            accumulator.add(timelines: new)
        }
        let cells = accumulator.cells
        accumulator.cells = RollupCells()
        parser.names = cells.names
        var result: [(RollupRow, Double)] = []
        result.reserveCapacity(cells.sums.count)
        let count = accumulator.buckets.count
        // A run closed after the last day is one that never ends (cohort sizes, lifetime proceeds): no row takes it
        // back.
        for (cell, value) in cells.sums where value != 0 && cell.bucket < count {
            guard let day = bucketDays[cell.bucket] else { continue }
            let row = RollupRow(
                metric: cell.metric, day: day, column: cell.column, name: cell.series, scope: -1)
            result.append((row, value))
        }
        return result
    }

    /// What `new` adds to rollups holding `old`: per key, the new value less the old (zeros left out).
    public static func difference(from old: [RollupKey: Int64], to new: [RollupKey: Int64]) -> [RollupKey: Int64] {
        var result = new
        for (key, value) in old { result[key, default: 0] -= value }
        return result.filter { $0.value != 0 }
    }
}
