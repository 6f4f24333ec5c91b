import Foundation
import HTTPTypes
import Hummingbird

/// The dashboard's cookies: their names and flags, decided in one place from whether the browser reached the
/// server over HTTPS.
///
/// StoreKeeper listens on plain HTTP; HTTPS ends at a proxy in front of it, which says so in
/// `X-Forwarded-Proto: https` (or `Forwarded: proto=https`). Over HTTPS a cookie is `Secure` and takes the
/// `__Host-` form (path `/`, no domain), so a network attacker can neither read it nor plant one from plain HTTP.
/// Believing the header from any client is safe here: it can only make the cookie stricter — a client that lies
/// gets a cookie its own browser will not send back over plain HTTP.
enum DashboardCookies {
    /// The session cookie's name without the `__Host-` prefix.
    static let session = "storekeeper_session"
    /// The sign-in form's CSRF cookie (double submit: the form carries the same token).
    static let signIn = "storekeeper_signin"

    /// Whether the browser reached the server over HTTPS, as the proxy in front of it says.
    static func isHTTPS(_ request: Request) -> Bool {
        if let proto = request.headers[HTTPField.Name("X-Forwarded-Proto")!] {
            return proto.split(separator: ",").first?.trimmingCharacters(in: .whitespaces).lowercased() == "https"
        }
        if let forwarded = request.headers[HTTPField.Name("Forwarded")!] {
            let first = forwarded.split(separator: ",").first ?? ""
            return first.split(separator: ";").contains {
                $0.trimmingCharacters(in: .whitespaces).lowercased() == "proto=https"
            }
        }
        return false
    }

    /// The cookie's name as this request's browser holds it (`__Host-` over HTTPS).
    static func name(_ base: String, _ request: Request) -> String {
        isHTTPS(request) ? "__Host-" + base : base
    }

    /// A `Set-Cookie` value: HttpOnly, SameSite=Strict, and over HTTPS `Secure` with the `__Host-` form.
    /// - Parameters:
    ///   - base: The cookie's name without prefix.
    ///   - value: Its value (empty with `maxAge` 0 to clear it).
    ///   - maxAge: Seconds it lives.
    ///   - request: The request it answers.
    static func set(_ base: String, _ value: String, maxAge: Int, for request: Request) -> String {
        isHTTPS(request)
            ? "__Host-\(base)=\(value); HttpOnly; SameSite=Strict; Secure; Path=/; Max-Age=\(maxAge)"
            : "\(base)=\(value); HttpOnly; SameSite=Strict; Path=/dashboard; Max-Age=\(maxAge)"
    }

    /// The value of the cookie `base` as this request's browser would have set it, if sent.
    static func value(_ base: String, in request: Request) -> String? {
        let name = name(base, request)
        for part in (request.headers[.cookie] ?? "").split(separator: ";") {
            let pair = part.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            if pair.count == 2, pair[0] == name { return String(pair[1]) }
        }
        return nil
    }
}
