public import Foundation
import StoreKeeperAPI

/// The StoreKeeper server's `/v1` API as the SDK calls it with an app's public key.
struct ServerConnection: Sendable {
    /// The server's base URL.
    let baseURL: URL
    /// The app's public key (`pk_…`).
    let apiKey: String
    /// The transport.
    let http: HTTPExchange
    /// Checks that each answer was signed for its request (nothing is checked when no key is configured).
    var verifier = AnswerVerifier(publicKeys: [])

    /// `GET /v1/subscribers/{id}`.
    func subscriber(_ appUserID: String) async throws -> SubscriberResponse {
        try about(appUserID, try await call("GET", APIPath.subscriber(appUserID), as: SubscriberResponse.self))
    }

    /// `answer`, when it is about `appUserID` (its id or one of its aliases). With signed answers on, an answer
    /// about anyone else is refused as ``StoreKeeperError/Code/answerNotVerified``: it was signed, but not for
    /// this customer, and caching it would grant this device someone else's subscription.
    func about(_ appUserID: String, _ answer: SubscriberResponse) throws -> SubscriberResponse {
        guard verifier.isEnabled else { return answer }
        let subscriber = answer.subscriber
        guard subscriber.appUserID == appUserID || subscriber.aliases.contains(appUserID) else {
            throw StoreKeeperError(
                .answerNotVerified, "\(AnswerVerifier.Failure.otherCustomer): asked about \(appUserID)")
        }
        return answer
    }

    /// `POST /v1/receipts` or `POST /v1/transactions`: the server verifies and stores the evidence.
    func post(_ evidence: StoreEvidence, for appUserID: String) async throws -> SubscriberResponse {
        let answer =
            switch evidence {
            case .receipt(let receipt):
                try await call(
                    "POST", APIPath.receipts, body: ReceiptPost(appUserID: appUserID, receipt: receipt),
                    as: SubscriberResponse.self)
            case .signedTransaction(let jws):
                try await call(
                    "POST", APIPath.transactions, body: TransactionPost(appUserID: appUserID, signedTransaction: jws),
                    as: SubscriberResponse.self)
            }
        return try about(appUserID, answer)
    }

    /// `POST /v1/subscribers/{id}/alias`: `appUserID` becomes another name of `newAppUserID`.
    func alias(_ appUserID: String, into newAppUserID: String) async throws -> SubscriberResponse {
        try about(
            newAppUserID,
            try await call(
                "POST", APIPath.alias(appUserID), body: AliasPost(newAppUserID: newAppUserID),
                as: SubscriberResponse.self))
    }

    /// `GET /v1/subscribers/{id}/eligibility`.
    func eligibility(_ appUserID: String, productIDs: [String]) async throws -> [String: String] {
        try await call(
            "GET", APIPath.eligibility(appUserID, productIDs: productIDs), as: EligibilityResponse.self
        ).eligibility
    }

    /// `GET /v1/subscribers/{id}/offerings`.
    func offerings(_ appUserID: String) async throws -> OfferingsResponse {
        try await call("GET", APIPath.subscriberOfferings(appUserID), as: OfferingsResponse.self)
    }

    func call<Answer: Decodable>(_ method: String, _ path: String, as type: Answer.Type) async throws -> Answer {
        try await exchange(method, path, body: nil, as: type)
    }

    func call<Body: Encodable, Answer: Decodable>(
        _ method: String, _ path: String, body: Body, as type: Answer.Type
    ) async throws -> Answer {
        try await exchange(method, path, body: try APICoding.encoder().encode(body), as: type)
    }

    /// Sends one request; 5xx is `offline` (the server or Apple is down: try again), another non-2xx is `server`
    /// with the server's code, and another answer that is not signed for this request (when keys are configured) is
    /// `answerNotVerified`.
    func exchange<Answer: Decodable>(
        _ method: String, _ path: String, body: Data?, as type: Answer.Type
    ) async throws -> Answer {
        guard let url = URL(string: baseURL.absoluteString.trimmingSuffix("/") + path) else {
            throw StoreKeeperError(.invalidAnswer, "cannot make a URL of \(baseURL) and \(path)")
        }
        let nonce = AnswerVerifier.nonce()
        let signed = verifier.isEnabled
        let (status, headers, data) = try await http.exchange(
            method, url, key: apiKey, body: body,
            extraHeaders: signed
                ? [(AnswerSignature.nonceHeader, nonce), (AnswerSignature.schemeHeader, AnswerSignature.schemeV2)]
                : [])
        // A 5xx is `offline` below whether signed or not: a proxy in front of a server that is down answers
        // unsigned, and an attacker who can block the network can make any request offline anyway.
        if signed, status < 500 {
            do {
                try verifier.verify(
                    nonce: nonce, method: method, target: path, requestBody: body,
                    authorization: HTTPExchange.authorization(apiKey), status: status, headers: headers, body: data)
            } catch {
                throw StoreKeeperError(.answerNotVerified, "\(method) \(path) answered \(status): \(error)")
            }
        }
        guard (200..<300).contains(status) else {
            let detail = try? APICoding.decoder().decode(ErrorBody.self, from: data).error
            let reason = "\(method) \(path) answered \(status): \(detail?.message ?? "no error body")"
            throw StoreKeeperError(
                status >= 500 ? .offline : .server, reason, serverCode: detail?.code.rawValue, httpStatus: status)
        }
        do {
            return try APICoding.decoder().decode(type, from: data)
        } catch {
            throw StoreKeeperError(.invalidAnswer, "\(method) \(path): \(error)", httpStatus: status)
        }
    }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}
