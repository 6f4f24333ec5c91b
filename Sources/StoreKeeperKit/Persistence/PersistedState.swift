import Foundation
import StoreKeeperAPI

/// What StoreKeeperKit saves: who the customer is and the last server answer.
struct PersistedState: Codable, Sendable, Hashable {
    /// The app user id requests are made for.
    var appUserID: String
    /// Whether StoreKeeperKit made the id up (no ``StoreKeeper/logIn(_:)`` yet).
    var isAnonymous: Bool
    /// The last server answer for ``appUserID``.
    var answer: CachedAnswer?
    /// The last offerings the server gave (kept across log-in and log-out: a paywall is better shown from an older
    /// answer than not at all).
    var offerings: OfferingsResponse?

    /// A new anonymous customer.
    static func anonymous() -> PersistedState {
        PersistedState(
            appUserID: "$anonymous:" + UUID().uuidString.lowercased(), isAnonymous: true, answer: nil, offerings: nil)
    }

    func encoded() throws -> Data { try APICoding.encoder().encode(self) }

    static func decoded(_ data: Data) throws -> PersistedState {
        try APICoding.decoder().decode(PersistedState.self, from: data)
    }
}
