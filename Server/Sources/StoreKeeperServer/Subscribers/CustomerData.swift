import Foundation
import StoreKeeperAPI
import StoreKeeperStorage
import StoreKeeperWire
import SubscriptionEngine

/// A customer's data as the law gives them a right to it: all of it, read back (a data access request), or
/// erased (a request to be forgotten). Both need a `support` key; neither reads another project's customers.
struct CustomerData: Sendable {
    let store: any EvidenceStore & CustomerDataStore
    /// Where the customer's attributes are read.
    let attributes: any AttributeStore
    let apps: AppDirectory
    let engine: SubscriptionEngine
    let now: @Sendable () -> Date

    /// The most events an export holds (a customer with more has an export cut at the oldest this many).
    static let maximumEvents = 100_000

    /// Everything the project holds about `appUserID` (an alias resolves to its customer).
    /// - Throws: `customer_not_found` when the project holds nothing about the id.
    func export(appUserID: String, bundleID: String) async throws -> SubscriberExport {
        let appUserID = try CustomerID.normalized(appUserID)
        let project = try apps.project(bundleID)
        let at = now()
        let snapshot = try await store.snapshot(appUserID, in: project)
        let evidence = try snapshot.map(store.decodeEvidence) ?? EvidenceSet()
        let attributes = try await attributes.attributes(appUserKey: project.key(appUserID)).attributes.values
        let events = try await store.events(appUserID, in: project, limit: Self.maximumEvents).map { event in
            SubscriberEvent(
                id: event.id, createdAt: event.createdAt, type: event.type, cause: event.cause.rawValue,
                causeID: event.causeID, evidenceID: event.evidenceID, detail: event.detail)
        }
        guard snapshot != nil || !events.isEmpty || !attributes.isEmpty else { throw Self.unknown(appUserID) }
        let raw = try await store.customerEvidence(appUserID, in: project).map {
            ExportedEvidence(id: $0.id, kind: $0.kind, receivedAt: $0.receivedAt, body: $0.body)
        }
        return SubscriberExport(
            exportedAt: at,
            subscriber: Subscriber(
                appUserID: snapshot?.appUserID ?? appUserID, aliases: snapshot?.aliases ?? [],
                firstSeen: snapshot?.createdAt, state: engine.evaluate(evidence, at: at)),
            attributes: attributes, events: events, evidence: raw)
    }

    /// Erases `appUserID` (an alias erases its customer) in one transaction.
    /// - Throws: `customer_not_found` when the project holds nothing about the id (nothing is written).
    func erase(appUserID: String, bundleID: String) async throws -> ErasureResponse {
        let appUserID = try CustomerID.normalized(appUserID)
        guard let erased = try await store.eraseCustomer(appUserID, in: try apps.project(bundleID)) else {
            throw Self.unknown(appUserID)
        }
        return ErasureResponse(
            appUserID: erased.appUserID, aliases: erased.aliases, subscriptions: erased.subscriptions,
            rows: erased.rows)
    }

    /// The answer for an id the project holds nothing about.
    static func unknown(_ appUserID: String) -> ServiceError {
        ServiceError(
            .notFound, .customerNotFound, "the project holds nothing about \(UntrustedText.quoted(appUserID))")
    }
}
