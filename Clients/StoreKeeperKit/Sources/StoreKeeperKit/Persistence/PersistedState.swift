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

    /// A new anonymous customer.
    static func anonymous() -> PersistedState {
        PersistedState(appUserID: "$anonymous:" + UUID().uuidString.lowercased(), isAnonymous: true, answer: nil)
    }

    func encoded() throws -> Data { try APICoding.encoder().encode(self) }

    static func decoded(_ data: Data) throws -> PersistedState {
        try APICoding.decoder().decode(PersistedState.self, from: data)
    }
}
