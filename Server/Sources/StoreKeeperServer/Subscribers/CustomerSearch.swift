import AppStoreClient
import AppStoreModels
import AppStoreVerification
import Foundation
import StoreKeeperAPI
import StoreKeeperStorage
import StoreKeeperWire

/// The support desk's search, apart from HTTP: the customers of the caller's project that a piece of text names,
/// best match first. What StoreKeeper stores is searched first (app user ids and aliases exactly, then by prefix;
/// original transaction ids; the `$email` attribute); when nothing stored matches and the text has the shape of
/// an Apple identifier, each app of the project asks Apple — Look Up Order ID for an order id (`MK5TTTVWJH`),
/// Get Transaction Info for a transaction id — and the signed transactions Apple answers are verified and mapped
/// to the customers who own their original transactions. A customer of another project is never found: the
/// store reads the caller's project only, and Apple's answers are mapped inside it.
struct CustomerSearch: Sendable {
    /// Where customers are found.
    let search: any SearchStore
    /// Who owns a transaction Apple names.
    let store: any EvidenceStore
    let apps: AppDirectory
    let client: AppStoreClient

    /// The most results one search answers.
    static let maximumResults = 20
    /// The fewest and most characters (Unicode scalars) a search's text has.
    static let length = 3...256

    /// `GET /v1/search?q=`.
    /// - Parameters:
    ///   - text: The `q` parameter: 3–256 characters, no control characters, surrounding spaces ignored.
    ///   - bundleID: The caller's app (its project is searched).
    /// - Throws: ``ServiceError`` `invalid_parameter` naming `q` when it is missing, too short, too long or holds a
    ///   control character; Apple's failures (`apple_unavailable`, `apple_rate_limited` with `retry_after`) when a
    ///   lookup Apple had to answer did not succeed.
    func search(_ text: String?, bundleID: String) async throws -> SearchResponse {
        let query = try Self.validated(text)
        let project = try apps.project(bundleID)
        var matches = try await search.searchCustomers(query, in: project, limit: Self.maximumResults)
        if matches.isEmpty {
            matches = try await askApple(query, project: project)
        }
        return SearchResponse(
            results: matches.prefix(Self.maximumResults).map {
                SearchResult(appUserID: $0.appUserID, matched: $0.field.rawValue)
            })
    }

    /// `text` trimmed, or the error naming it.
    static func validated(_ text: String?) throws(ServiceError) -> String {
        guard let text else { throw ServiceError.invalid(.invalidParameter, "q is required: the text to search for") }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let count = trimmed.unicodeScalars.count
        guard length.contains(count) else {
            throw ServiceError.invalid(
                .invalidParameter,
                "q=\(UntrustedText.quoted(String(trimmed.unicodeScalars.prefix(64)))) has \(count) characters: a search needs \(length.lowerBound)–\(length.upperBound)"
            )
        }
        guard !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw ServiceError.invalid(
                .invalidParameter, "q=\(UntrustedText.quoted(String(trimmed.prefix(64)))) holds a control character")
        }
        return trimmed
    }

    /// What Apple's lookups a text's shape calls for.
    enum AppleLookup: Equatable {
        /// Digits only: a transaction id.
        case transaction
        /// Capital letters and digits with a letter, 8–20 of them: an order id.
        case order
    }

    /// The lookup `text` has the shape of, if any.
    static func lookup(for text: String) -> AppleLookup? {
        let bytes = Array(text.utf8)
        guard (1...20).contains(bytes.count) else { return nil }
        if bytes.allSatisfy({ (0x30...0x39).contains($0) }) { return .transaction }
        let shaped = bytes.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) }
        return shaped && bytes.count >= 8 ? .order : nil
    }

    /// The project's customers Apple's answers for `text` lead to, by each app with API credentials.
    func askApple(_ text: String, project: ProjectScope) async throws -> [CustomerMatch] {
        guard let lookup = Self.lookup(for: text) else { return [] }
        var matches: [CustomerMatch] = []
        for bundleID in apps.bundleIDs(in: project) {
            let app = try apps.app(bundleID)
            guard let credentials = app.credentials else { continue }
            let signed: [String]
            do {
                switch lookup {
                case .order:
                    let answer = try await client.lookUpOrder(orderID: text, credentials: credentials)
                    signed = answer.status == 0 ? answer.signedTransactions ?? [] : []
                case .transaction:
                    let answer = try await client.transactionInfo(transactionID: text, credentials: credentials)
                    signed = answer.signedTransactionInfo.map { [$0] } ?? []
                }
            } catch let error as AppStoreClientError where error.status == 404 || error.status == 400 {
                continue
            } catch let error as AppStoreClientError {
                throw ServiceError.apple(error, call: lookup == .order ? "Look Up Order ID" : "Get Transaction Info")
            }
            for token in signed {
                let transaction: JWSTransactionDecodedPayload
                do {
                    transaction = try await app.signedData.verifyTransaction(token)
                } catch let error as VerificationError {
                    throw ServiceError.unverifiable(
                        APIErrorCode(error.code), "Apple's answer for \(text): \(error.reason)")
                }
                guard
                    let ownerKey = try await store.owner(
                        originalTransactionKey: project.key(transaction.originalTransactionId),
                        bundleIDs: apps.bundleIDs(in: project))
                else { continue }
                let owner = ProjectScope.value(ofKey: ownerKey)
                let field: CustomerMatch.Field = lookup == .order ? .orderID : .transactionID
                if !matches.contains(where: { $0.appUserID == owner }) {
                    matches.append(CustomerMatch(appUserID: owner, field: field))
                }
            }
        }
        return matches
    }
}
