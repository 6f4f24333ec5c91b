public import Foundation

/// How fast subscription time runs, as in Apple's sandbox ("1 month = 5 min" by default), or real time.
///
/// Renewal periods, billing retry and grace period lengths all scale with the rate (reference §6).
public enum SandboxRate: String, Sendable, Hashable, Codable, CaseIterable {
    /// A month lasts 3 minutes.
    case threeMinutes = "3m"
    /// A month lasts 5 minutes (Apple's default).
    case fiveMinutes = "5m"
    /// A month lasts 15 minutes.
    case fifteenMinutes = "15m"
    /// A month lasts 30 minutes.
    case thirtyMinutes = "30m"
    /// A month lasts an hour.
    case oneHour = "1h"
    /// Production: real calendar periods.
    case realTime = "real"

    /// Seconds one subscription period lasts at this rate.
    /// - Parameter period: The product's period.
    /// - Returns: The scaled length.
    public func seconds(for period: SubscriptionPeriod) -> TimeInterval {
        let minutes: [SubscriptionPeriod: Double]
        switch self {
        case .threeMinutes: minutes = [.week: 3, .month: 3, .twoMonths: 6, .threeMonths: 9, .sixMonths: 18, .year: 36]
        case .fiveMinutes: minutes = [.week: 3, .month: 5, .twoMonths: 10, .threeMonths: 15, .sixMonths: 30, .year: 60]
        case .fifteenMinutes:
            minutes = [.week: 5, .month: 15, .twoMonths: 30, .threeMonths: 45, .sixMonths: 90, .year: 180]
        case .thirtyMinutes:
            minutes = [.week: 10, .month: 30, .twoMonths: 60, .threeMonths: 90, .sixMonths: 180, .year: 360]
        case .oneHour:
            minutes = [.week: 15, .month: 60, .twoMonths: 120, .threeMonths: 180, .sixMonths: 360, .year: 720]
        case .realTime: return period.realDays * 86_400
        }
        return minutes[period]! * 60
    }

    /// A number of real days (grace period, billing retry) scaled like a month.
    /// - Parameter days: Real days.
    /// - Returns: Seconds at this rate.
    public func seconds(forDays days: Double) -> TimeInterval {
        self == .realTime ? days * 86_400 : days / 30 * seconds(for: .month)
    }

    /// Real hours (notification retry schedule) scaled like a month.
    /// - Parameter hours: Real hours.
    /// - Returns: Seconds at this rate.
    public func seconds(forHours hours: Double) -> TimeInterval {
        seconds(forDays: hours / 24)
    }
}

/// A subscription's billing period.
public enum SubscriptionPeriod: String, Sendable, Hashable, Codable, CaseIterable {
    /// One week (`P1W`).
    case week = "P1W"
    /// One month (`P1M`).
    case month = "P1M"
    /// Two months (`P2M`).
    case twoMonths = "P2M"
    /// Three months (`P3M`).
    case threeMonths = "P3M"
    /// Six months (`P6M`).
    case sixMonths = "P6M"
    /// One year (`P1Y`).
    case year = "P1Y"

    /// Length in real days (months as 30 days, years as 365).
    public var realDays: Double {
        switch self {
        case .week: 7
        case .month: 30
        case .twoMonths: 60
        case .threeMonths: 90
        case .sixMonths: 180
        case .year: 365
        }
    }
}
