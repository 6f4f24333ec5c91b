import AppStoreModels
import Foundation
import StoreKeeperAPI
import StoreKeeperStorage
import StoreKeeperWire
import SubscriptionEngine

/// Access support gives without a purchase, and takes back: each grant or revocation is evidence written with the
/// customer's other evidence (``EntitlementGrant``, ``GrantRevocation``), so the engine's answer, the events and
/// the webhooks follow from it as from a purchase, in the same transaction.
struct SupportGrants: Sendable {
    let store: any EvidenceStore
    let apps: AppDirectory
    let engine: SubscriptionEngine
    let policy: TransferPolicy
    let now: @Sendable () -> Date

    /// The durations a grant may be given for, by the name the API takes (`lifetime` has none).
    static let durations: [String: DateComponents] = [
        "P3D": DateComponents(day: 3), "P1W": DateComponents(day: 7), "P1M": DateComponents(month: 1),
        "P3M": DateComponents(month: 3), "P6M": DateComponents(month: 6), "P1Y": DateComponents(year: 1),
    ]

    /// The longest reason, in characters.
    static let maximumReason = 500

    /// Gives `appUserID` the entitlement `entitlement` (creating the customer when unknown).
    /// - Returns: The grant, as it stands now.
    /// - Throws: `unknown_entitlement` for an entitlement the catalog lacks, `invalid_grant` naming the field for a
    ///   duration, end or reason the API does not take; nothing is written then.
    func grant(_ body: GrantPost, appUserID: String, entitlement: String, bundleID: String) async throws -> Grant {
        let appUserID = try CustomerID.normalized(appUserID)
        let entitlement = try known(entitlement)
        let at = now()
        let grant = EntitlementGrant(
            id: "grant_" + UUID().uuidString.lowercased(), entitlement: entitlement, grantedAt: at,
            expiresAt: try Self.end(body, from: at), reason: try Self.reason(body.reason))
        var evidence = EvidenceSet()
        evidence.insert(grant)
        try await write(
            evidence, appUserID: appUserID, bundleID: bundleID, eventType: ChangeKind.entitlementGranted.rawValue,
            raw: [
                "grant_id": .string(grant.id), "entitlement": .string(entitlement),
                "granted_at": .string(AppleDateFormat.rfc3339(at)),
                "expires_at": grant.expiresAt.map { .string(AppleDateFormat.rfc3339($0)) } ?? .null,
                "reason": grant.reason.map(JSONValue.string) ?? .null,
            ],
            detail: [
                "entitlement": .string(entitlement), "grant_id": .string(grant.id),
                "expires_at": .string(grant.expiresAt.map(AppleDateFormat.rfc3339) ?? "never"),
            ])
        guard let state = engine.evaluate(evidence, at: at).grants.first else {
            throw ServiceError(.conflict, .internalError, "the grant \(grant.id) was written but does not evaluate")
        }
        return Grant(state)
    }

    /// Revokes every grant of `entitlement` in force for `appUserID`.
    /// - Returns: The grants revoked, as they stand now.
    /// - Throws: `unknown_entitlement`; `grant_not_found` when none is in force (nothing is written).
    func revoke(appUserID: String, entitlement: String, bundleID: String) async throws -> GrantRevocationResponse {
        let appUserID = try CustomerID.normalized(appUserID)
        let entitlement = try known(entitlement)
        let project = try apps.project(bundleID)
        let at = now()
        let stored = try await store.snapshot(appUserID, in: project).map(store.decodeEvidence) ?? EvidenceSet()
        let active = engine.evaluate(stored, at: at).grants.filter { $0.isActive && $0.entitlement == entitlement }
        guard !active.isEmpty else {
            throw ServiceError(
                .notFound, .grantNotFound,
                "\(UntrustedText.quoted(appUserID)) holds no grant of \(UntrustedText.quoted(entitlement)) in force")
        }
        var evidence = EvidenceSet()
        for grant in active { evidence.insert(GrantRevocation(grantID: grant.id, revokedAt: at)) }
        try await write(
            evidence, appUserID: appUserID, bundleID: bundleID, eventType: ChangeKind.entitlementRevoked.rawValue,
            raw: ["revoked": .array(active.map { .string($0.id) }), "at": .string(AppleDateFormat.rfc3339(at))],
            detail: [
                "entitlement": .string(entitlement), "grant_ids": .string(active.map(\.id).joined(separator: ",")),
            ])
        var after = stored
        after.formUnion(evidence)
        let revoked = Set(active.map(\.id))
        return GrantRevocationResponse(
            revoked: engine.evaluate(after, at: at).grants.filter { revoked.contains($0.id) }.map(Grant.init))
    }

    /// Writes support's evidence for one customer, its raw form kept as the evidence row.
    func write(
        _ evidence: EvidenceSet, appUserID: String, bundleID: String, eventType: String, raw: [String: JSONValue],
        detail: [String: EventValue]
    ) async throws {
        let project = try apps.project(bundleID)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let rawBody = String(decoding: try encoder.encode(raw), as: UTF8.self)
        _ = try await store.apply(
            EvidenceWrite(
                project: project, bundleID: bundleID, appUserID: appUserID, kind: "support", rawBody: rawBody,
                evidence: evidence, originalTransactionIDs: [], cause: .support, eventType: eventType, detail: detail),
            policy: policy, now: now())
    }

    /// `entitlement` when the catalog defines it.
    func known(_ entitlement: String) throws(ServiceError) -> String {
        let catalog = Set(engine.configuration.entitlements.values.joined())
        guard catalog.contains(entitlement) else {
            throw .invalid(
                .unknownEntitlement,
                "entitlement \(UntrustedText.quoted(entitlement)) is not in the catalog: "
                    + (catalog.isEmpty ? "no entitlement is configured" : catalog.sorted().joined(separator: ", ")))
        }
        return entitlement
    }

    /// When a grant given at `at` ends (`nil`: never), from exactly one of `duration` and `expires_at`.
    static func end(_ body: GrantPost, from at: Date) throws(ServiceError) -> Date? {
        switch (body.duration, body.expiresAt) {
        case (let duration?, nil):
            if duration == "lifetime" { return nil }
            guard let components = durations[duration],
                let end = Self.calendar.date(byAdding: components, to: at)
            else {
                throw .invalid(
                    .invalidGrant,
                    "duration \(UntrustedText.quoted(duration)) is not one of P3D, P1W, P1M, P3M, P6M, P1Y, lifetime")
            }
            return end
        case (nil, let text?):
            guard let end = Self.date(text) else {
                throw .invalid(
                    .invalidGrant,
                    "expires_at \(UntrustedText.quoted(text)) is not an ISO 8601 date-time (2027-01-31T00:00:00Z)")
            }
            guard end > at else {
                throw .invalid(.invalidGrant, "expires_at \(UntrustedText.quoted(text)) is not after now")
            }
            guard end < at.addingTimeInterval(100 * 366 * 86_400) else {
                throw .invalid(
                    .invalidGrant,
                    "expires_at \(UntrustedText.quoted(text)) is more than 100 years away: use \"duration\": \"lifetime\""
                )
            }
            return end
        case (nil, nil):
            throw .invalid(.invalidGrant, "a grant needs a duration or an expires_at")
        case (_?, _?):
            throw .invalid(.invalidGrant, "a grant takes a duration or an expires_at, not both")
        }
    }

    /// The reason trimmed, at most ``maximumReason`` characters and without control characters; `nil` when empty.
    static func reason(_ raw: String?) throws(ServiceError) -> String? {
        guard let text = raw?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        guard text.count <= maximumReason,
            !text.unicodeScalars.contains(where: {
                $0.properties.generalCategory == .control || $0.properties.generalCategory == .format
            })
        else {
            throw .invalid(
                .invalidGrant, "reason must be at most \(maximumReason) characters without control characters")
        }
        return text
    }

    /// An ISO 8601 date-time, with or without fractional seconds.
    static func date(_ text: String) -> Date? {
        guard text.utf8.count <= 40 else { return nil }
        return (try? Date(text, strategy: .iso8601))
            ?? (try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
    }

    /// The calendar durations are added in: Gregorian, UTC (a month from the 31st is the month's last day).
    static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()
}
