import Foundation
import StoreKeeperAPI
import StoreKeeperStorage

/// A project's offerings as its settings hold them, with the answer to `GET /v1/subscribers/{id}/offerings`
/// encoded once.
struct OfferingBook: Sendable {
    /// The setting kind of an offering (named by its identifier).
    static let offeringKind = "offering"
    /// The setting kind of the current offering's choice (one per project, named `""`).
    static let currentKind = "current_offering"

    /// Every offering, by identifier.
    let offerings: [Offering]
    /// The current offering's identifier, when it is set and the offering exists.
    let currentID: String?
    /// The answer, as JSON.
    let answer: [UInt8]

    /// The book of `settings` (a project's).
    init(_ settings: [ProjectSetting]) throws {
        let decoder = APICoding.decoder()
        let offerings = try settings.filter { $0.kind == Self.offeringKind }.map {
            try decoder.decode(Offering.self, from: Data($0.body.utf8))
        }.sorted { $0.identifier < $1.identifier }
        let chosen = try settings.first { $0.kind == Self.currentKind }.map {
            try decoder.decode(CurrentOfferingPut.self, from: Data($0.body.utf8)).identifier
        }
        // A current offering removed by a racing delete on another replica reads as none.
        let currentID = chosen.flatMap { id in offerings.contains { $0.identifier == id } ? id : nil }
        self.offerings = offerings
        self.currentID = currentID
        answer = Array(
            try APICoding.encoder().encode(OfferingsResponse(currentOfferingID: currentID, offerings: offerings)))
    }

    /// The offerings and the current one.
    var response: OfferingsResponse { OfferingsResponse(currentOfferingID: currentID, offerings: offerings) }

    /// The offering of `identifier`, if the project has it.
    func offering(_ identifier: String) -> Offering? { offerings.first { $0.identifier == identifier } }
}
