import Foundation
import StoreKeeperAPI
import StoreKeeperStorage

/// Puts a customer in an experiment's variant, once: the variant comes from a keyed hash of (experiment,
/// customer) with the project's secret key (``ExperimentBucket``), so every replica assigns the same one, and the first enrolment recorded is kept. A customer merged
/// from other ids keeps the earliest enrolment of any of them. A guest (no evidence: any id the public key names)
/// is enrolled only within the project's guest bound (``GuestBudget``, shared with app-set attributes).
struct Enroller: Sendable {
    let store: any EvidenceStore
    /// Where a guest's attributes are read.
    let attributes: any AttributeStore
    /// Where enrolments are kept.
    let experiments: any ExperimentStore
    let secrets: ExperimentSecrets
    /// The bound on customers without evidence the project holds rows for.
    let guests: GuestBudget

    /// The variant `appUserID` is in, enrolling them (with an `experiment_enrolled` event) when they are not yet;
    /// `nil` for a new guest past the project's guest bound (nothing is written: they are answered as if no
    /// experiment ran).
    func variant(of appUserID: String, in experiment: Experiment, project: ProjectScope, now: Date) async throws
        -> String?
    {
        let snapshot = try await store.snapshot(appUserID, in: project)
        let canonical = snapshot?.appUserID ?? appUserID
        let keys = Set([canonical, appUserID] + (snapshot?.aliases ?? [])).map(project.key).sorted()
        let variants = Set(experiment.variants.map(\.identifier))
        if let earliest = try await experiments.enrolments(
            projectID: project.id, experiment: experiment.identifier, appUserKeys: keys
        ).first(where: { variants.contains($0.variant) }) {
            return earliest.variant
        }
        if try await attributes.isNewGuest(appUserKey: project.key(canonical)) {
            do {
                try await guests.admit(project, store: attributes)
            } catch let refusal as ServiceError where refusal.code == .tooManyGuests {
                ServerMetrics.guestEnrolment(outcome: "refused")
                return nil
            }
            ServerMetrics.guestEnrolment(outcome: "enrolled")
        }
        let variant = ExperimentBucket.variant(
            key: try await secrets.key(project), experiment: experiment.identifier,
            variants: experiment.variants.map { ($0.identifier, $0.weight) }, customer: canonical)
        let recorded = try await experiments.enrol(
            EnrolmentRecord(
                projectID: project.id, experiment: experiment.identifier, appUserKey: project.key(canonical),
                variant: variant, enrolledAt: now))
        if recorded { return variant }
        // Another replica enrolled the same customer a moment ago: its enrolment is the one kept.
        return try await experiments.enrolments(
            projectID: project.id, experiment: experiment.identifier, appUserKeys: [project.key(canonical)]
        ).first?.variant ?? variant
    }
}
