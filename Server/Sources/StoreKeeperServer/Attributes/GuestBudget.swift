import StoreKeeperStorage
import Synchronization

/// How many customers without evidence (no purchase, receipt or app transaction) a project holds app-set
/// attributes or experiment enrolments for: at most `maximum`, so a public key — in every copy of the app, naming
/// no customer — cannot fill the database with rows for ids nobody bought with. A customer an alias made (a row
/// without evidence) is a guest like one without a row.
///
/// The count is read from the database (up to `maximum`) once per project and again after every
/// ``recountInterval`` customers this process admitted, so its cost does not grow with each write and customers
/// who bought since, or whose attributes were removed, leave the count at the next reading; between readings
/// each process counts its own admissions, so the bound can be passed by at most one interval per process.
final class GuestBudget: Sendable {
    struct Tally {
        var counted: Int
        var admitted: Int
    }

    /// The most guests per project.
    let maximum: Int
    /// Admissions between two readings of the count: 1 % of the bound, at least 1.
    var recountInterval: Int { max(1, maximum / 100) }
    private let tallies = Mutex<[String: Tally]>([:])

    init(maximum: Int) { self.maximum = maximum }

    /// Admits one more guest to `project`, or refuses when the project holds its maximum.
    /// - Throws: ``ServiceError`` 409 `too_many_guests` naming the bound and what lifts it.
    func admit(_ project: ProjectScope, store: any AttributeStore) async throws {
        var tally: Tally
        if let known = tallies.withLock({ $0[project.id] }), known.admitted < recountInterval {
            tally = known
        } else {
            tally = Tally(counted: try await store.guests(in: project, limit: maximum), admitted: 0)
        }
        guard tally.counted + tally.admitted < maximum else {
            throw ServiceError(
                .conflict, .tooManyGuests,
                "project \(project.id) holds app-set attributes or enrolments for \(maximum) customers the server has "
                    + "no evidence "
                    + "for (maximumAttributeGuests); this customer's are taken once they have a purchase, a receipt "
                    + "or an app transaction, or when set with a secret key")
        }
        tally.admitted += 1
        tallies.withLock { $0[project.id] = tally }
    }
}
