import Foundation
import NIOHTTP1
import StoreKeeperServer
import StoreKeeperStorage
import TestSupport
import Testing

/// The matrix's attacks, route by route.
extension CrossTenantTests {
    /// The attacks on each route. A route of the catalog without attacks fails the matrix, so a new route
    /// joins it by construction.
    static func attacks(_ route: APIRoute, _ ground: Ground) -> [Attack] {
        // What A may see of a name B also uses is A's own customer of that name: never B's subscription.
        let victimOriginal = ground.victimOriginal
        let noSubscriptions: @Sendable (Int, [String: Any]) -> Bool = { status, body in
            let text = String(decoding: (try? JSONSerialization.data(withJSONObject: body)) ?? Data(), as: UTF8.self)
            return !text.contains(victimOriginal) && !text.contains(Servers.appB)
        }
        switch route.endpoint {
        case .postReceipt:
            return [
                Attack(
                    name: "A's receipt for B's user id", user: "",
                    body: ["app_user_id": "victim", "receipt": ground.attackerReceipt]),
                Attack(
                    name: "A's receipt for B's alias", user: "",
                    body: ["app_user_id": "victim-device", "receipt": ground.attackerReceipt]),
                Attack(
                    name: "B's receipt under A's key", user: "",
                    body: ["app_user_id": "victim", "receipt": ground.victimReceipt],
                    check: { status, _ in status == 422 }),
            ]
        case .postTransaction:
            return [
                Attack(
                    name: "A's transaction for B's user id", user: "",
                    body: ["app_user_id": "victim", "signed_transaction": ground.attackerToken]),
                Attack(
                    name: "B's transaction under A's key", user: "",
                    body: ["app_user_id": "mallory", "signed_transaction": ground.victimToken],
                    check: { status, _ in status == 422 }),
            ]
        case .postNotification:
            return [Attack(name: "A's notification", user: "", body: ["signedPayload": ground.notification])]
        case .getSubscriber:
            return [
                Attack(
                    name: "B's user", user: "victim",
                    check: { s, b in noSubscriptions(s, b) && withoutVictimCopy(s, b) }),
                Attack(
                    name: "B's alias", user: "victim-device",
                    check: { s, b in noSubscriptions(s, b) && withoutVictimCopy(s, b) }),
            ]
        case .getEligibility:
            return [
                Attack(
                    name: "B's user", user: "victim", query: "?product_ids=premium.monthly",
                    check: { status, body in
                        status != 200 || (body["eligibility"] as? [String: String])?["premium.monthly"] == "eligible"
                    })
            ]
        case .postAlias:
            return [
                Attack(name: "B's user into a new id", user: "victim", body: ["new_app_user_id": "stolen"]),
                Attack(name: "B's alias into a new id", user: "victim-device", body: ["new_app_user_id": "stolen"]),
                Attack(
                    name: "A's user into B's id", user: "mallory", body: ["new_app_user_id": "victim"],
                    check: noSubscriptions),
                Attack(
                    name: "A's user into B's alias", user: "mallory", body: ["new_app_user_id": "victim-device"],
                    check: noSubscriptions),
            ]
        case .getSubscribers:
            return [
                Attack(name: "the project's customers", user: "", query: "?limit=1000", check: noSubscriptions),
                Attack(name: "B's user by cursor", user: "", query: "?cursor=victi&limit=5", check: noSubscriptions),
            ]
        case .getSearch:
            // A's project may hold a customer named like B's (an alias attack may have made one): that one is A's.
            // B's subscription and B's email find nothing for A.
            let nothingFound: @Sendable (Int, [String: Any]) -> Bool = { status, body in
                status == 403 || (status == 200 && (body["results"] as? [Any])?.isEmpty == true)
            }
            return [
                Attack(name: "B's user id", user: "", query: "?q=victim", check: noSubscriptions),
                Attack(name: "B's user id by prefix", user: "", query: "?q=vic", check: noSubscriptions),
                Attack(name: "B's original transaction", user: "", query: "?q=\(victimOriginal)", check: nothingFound),
                Attack(name: "B's customer's email", user: "", query: "?q=\(victimCopy)", check: nothingFound),
            ]
        case .postGrant:
            // A's key may grant A's own customer of B's customer's name: never B's customer.
            return [
                Attack(
                    name: "a grant to B's user id", user: "victim", segments: ["pro"], body: ["duration": "P1W"],
                    check: { status, body in status == 403 || (status == 201 && noSubscriptions(status, body)) }),
                Attack(
                    name: "a grant to B's alias", user: "victim-device", segments: ["pro"],
                    body: ["duration": "lifetime"],
                    check: { status, body in status == 403 || (status == 201 && noSubscriptions(status, body)) }),
            ]
        case .deleteGrant:
            return [
                Attack(
                    name: "B's user's grants revoked", user: "victim", segments: ["pro"],
                    check: { status, body in [403, 404].contains(status) || noSubscriptions(status, body) })
            ]
        case .postExtension:
            // B's subscription, asked for under B's customer's name or A's own: A's project holds no such
            // subscription, so Apple is never asked (the victim's renewal date is checked unchanged by the matrix).
            return ["victim", "victim-device", "attacker"].map { user in
                Attack(
                    name: "B's subscription extended as \(user)", user: user, segments: [victimOriginal],
                    rawBody: #"{"days": 30, "reason": "other"}"#,
                    check: { status, _ in [403, 404].contains(status) })
            }
        case .postAppAccountToken:
            // B's purchase moved to a token of A's choosing: A's project holds no such purchase, Apple is never asked.
            return ["victim", "victim-device", "attacker"].map { user in
                Attack(
                    name: "B's purchase's token set as \(user)", user: user, segments: [victimOriginal],
                    rawBody: #"{"app_account_token": "7e3fb20b-4cdb-47cc-936d-99d65f608138"}"#,
                    check: { status, _ in [403, 404].contains(status) })
            }
        case .postMassExtension:
            // A's key extends A's own app's subscribers only (Apple is asked for A's app, or 409 without A's
            // credentials; B's expiry is checked unchanged by the matrix).
            return [
                Attack(
                    name: "a mass extension of B's product", user: "",
                    rawBody: #"{"product_id": "premium.monthly", "days": 3, "reason": "other"}"#,
                    check: { status, body in [202, 403, 409].contains(status) && noSubscriptions(status, body) })
            ]
        case .getMassExtension:
            return [
                Attack(
                    name: "a mass extension A never made", user: UUID().uuidString.lowercased(),
                    check: { status, _ in [403, 404].contains(status) })
            ]
        case .getExport:
            // What A's key reads of a name B also uses is A's own customer of that name, or nothing.
            return ["victim", "victim-device"].map { user in
                Attack(
                    name: "B's customer's data exported as \(user)", user: user,
                    check: { status, body in [403, 404].contains(status) || noSubscriptions(status, body) })
            }
        case .deleteSubscriber:
            // A's key may erase A's own customer of B's customer's name: B's rows and answer stay (the matrix checks).
            return ["victim", "victim-device"].map { user in
                Attack(
                    name: "B's customer erased as \(user)", user: user,
                    check: { status, body in [403, 404].contains(status) || noSubscriptions(status, body) })
            }
        case .getAudit:
            // B's changes (its webhook, offering, rules, grant) are in B's log; A's log holds only A's.
            return [
                Attack(
                    name: "A's audit log", user: "", query: "?limit=1000",
                    check: { status, body in
                        let text = String(
                            decoding: (try? JSONSerialization.data(withJSONObject: body)) ?? Data(), as: UTF8.self)
                        let mine = Set(
                            [Servers.secretA, Servers.supportA, Servers.readA].map {
                                "key:" + HexDigest.sha256($0).prefix(16)
                            })
                        let actors = (body["entries"] as? [[String: Any]] ?? []).map { $0["actor"] as? String ?? "" }
                        return status == 403
                            || (status == 200 && !text.contains(victimCopy) && actors.allSatisfy(mine.contains))
                    })
            ]
        case .getEventFeed:
            return [
                Attack(name: "the project's event feed", user: "", query: "?limit=1000", check: noSubscriptions)
            ]
        case .getEvents:
            return [
                Attack(name: "B's history", user: "victim", check: noSubscriptions),
                Attack(name: "B's alias's history", user: "victim-device", check: noSubscriptions),
            ]
        case .postOfferSignature:
            return [
                Attack(
                    name: "an offer signature", user: "",
                    body: ["product_id": "premium.monthly", "offer_id": "winback50"])
            ]
        case .postImport:
            return [
                Attack(
                    name: "B's subscription imported for B's user id", user: "",
                    body: ["app_user_id": "victim", "original_transaction_id": ground.victimOriginal],
                    check: noSubscriptions),
                Attack(
                    name: "B's receipt imported under A's key", user: "",
                    body: ["app_user_id": "victim", "receipt": ground.victimReceipt],
                    check: { status, _ in status == 422 || status == 403 }),
            ]
        case .getSubscriberDeliveries:
            return [
                Attack(name: "B's user's deliveries", user: "victim", check: noSubscriptions),
                Attack(name: "B's alias's deliveries", user: "victim-device", check: noSubscriptions),
            ]
        case .postWebhook:
            return [
                Attack(
                    name: "an endpoint of A's own", user: "", body: ["url": "http://127.0.0.1:9/a"],
                    check: { status, _ in status == 201 || status == 403 })
            ]
        case .getWebhooks:
            let endpoint = ground.victimEndpoint
            return [
                Attack(
                    name: "A's endpoints", user: "",
                    check: { status, body in
                        let text = String(
                            decoding: (try? JSONSerialization.data(withJSONObject: body)) ?? Data(), as: UTF8.self)
                        return !text.contains(endpoint)
                    })
            ]
        case .deleteWebhook, .getWebhookDeliveries, .postWebhookTest:
            return [Attack(name: "B's endpoint", user: ground.victimEndpoint, check: refused)]
        case .postRedeliver:
            return [Attack(name: "B's delivery", user: ground.victimDelivery, check: refused)]
        case .getMetric:
            // A's project holds one subscription (mallory's); B's victim must not be counted.
            return [
                Attack(
                    name: "A's metrics count A's customers only", user: "new_subscriptions",
                    query: "?environment=all&interval=month&from=2000-01-01&to=2100-01-01",
                    check: { status, body in
                        guard status == 200 else { return status == 403 }
                        let series = body["series"] as? [[String: Any]] ?? []
                        let total = series.flatMap { $0["points"] as? [[String: Any]] ?? [] }.reduce(0.0) {
                            $0 + ($1["value"] as? Double ?? 0)
                        }
                        return total == 1
                    })
            ]
        case .postOffering:
            return [
                Attack(
                    name: "an offering of A's own named like B's", user: "",
                    rawBody:
                        #"{"identifier":"\#(victimOffering)","packages":[{"identifier":"m","product_id":"premium.monthly"}]}"#,
                    check: { status, _ in status == 201 || status == 409 || status == 403 })
            ]
        case .getOfferings:
            return [Attack(name: "A's offerings", user: "", check: withoutVictimCopy)]
        case .putCurrentOffering:
            return [
                Attack(
                    name: "B's offering made current", user: "", body: ["identifier": victimOffering],
                    check: withoutVictimCopy)
            ]
        case .getOffering, .deleteOffering:
            return [Attack(name: "B's offering", user: victimOffering, check: withoutVictimCopy)]
        case .putOffering:
            return [
                Attack(
                    name: "B's offering rewritten", user: victimOffering,
                    rawBody: #"{"packages":[{"identifier":"m","product_id":"premium.annual"}]}"#,
                    check: withoutVictimCopy)
            ]
        case .getTargeting:
            return [
                Attack(
                    name: "A's targeting rules", user: "",
                    check: { status, body in
                        let text = String(
                            decoding: (try? JSONSerialization.data(withJSONObject: body)) ?? Data(), as: UTF8.self)
                        return !text.contains("victim-rule")
                    })
            ]
        case .putTargeting:
            return [
                Attack(
                    // A's own offering of that name (the postOffering attack made it) is A's to show; B's never is.
                    name: "a rule showing B's offering", user: "",
                    rawBody: #"{"rules":[{"identifier":"r","offering_id":"\#(victimOffering)"}]}"#,
                    check: withoutVictimCopy)
            ]
        case .postExperiment:
            return [
                Attack(
                    name: "an experiment of A's own on B's offering's name", user: "",
                    rawBody:
                        #"{"identifier":"a-exp","variants":[{"identifier":"x","offering_id":"\#(victimOffering)","weight":50},{"identifier":"y","offering_id":"\#(victimOffering)","weight":50}]}"#,
                    check: { status, body in status == 201 || status == 409 || status == 400 || status == 403 })
            ]
        case .getExperiments:
            return [
                Attack(
                    name: "A's experiments", user: "",
                    check: { status, body in
                        let text = String(
                            decoding: (try? JSONSerialization.data(withJSONObject: body)) ?? Data(), as: UTF8.self)
                        return !text.contains("victim-exp")
                    })
            ]
        case .getExperiment, .startExperiment, .stopExperiment, .getExperimentResults:
            return [Attack(name: "B's experiment", user: "victim-exp", check: refused)]
        case .postAttributes:
            return [
                Attack(
                    name: "attributes on B's user id", user: "victim",
                    rawBody: #"{"attributes":{"$email":"mallory@a"}}"#, check: withoutVictimCopy),
                Attack(
                    name: "attributes on B's alias", user: "victim-device",
                    rawBody: #"{"attributes":{"plan_interest":"stolen"}}"#, check: withoutVictimCopy),
            ]
        case .deleteAttributes:
            return [
                Attack(name: "B's user's attributes", user: "victim", check: withoutVictimCopy),
                Attack(name: "B's alias's attributes", user: "victim-device", check: withoutVictimCopy),
            ]
        case .getSubscriberOfferings:
            return [Attack(name: "B's user's offerings", user: "victim", check: withoutVictimCopy)]
        case .postRetentionRequest:
            // Apple's request about A's customer: B's rules never answer it.
            return [
                Attack(
                    name: "A's customer's retention request", user: "",
                    body: ["signedPayload": ground.retentionRequest], check: withoutVictimRetention)
            ]
        case .getRetentionRules:
            return [Attack(name: "A's retention rules", user: "", check: withoutVictimRetention)]
        case .putRetentionRules:
            return [
                Attack(
                    name: "A's retention rules replaced", user: "",
                    rawBody:
                        #"{"rules":[{"identifier":"mine","respond":{"message":{"message_id":"2d7f0a9e-5b61-4c3b-a0f4-8e2c6b9d1e57"}}}]}"#,
                    check: { status, body in
                        (status == 200 || status == 403) && !(body.description.contains(victimRetentionRule))
                    })
            ]
        default:
            return []
        }
    }

    /// Any answer that names neither B's retention rule nor (in an answer to Apple) B's message.
    static let withoutVictimRetention: @Sendable (Int, [String: Any]) -> Bool = { status, body in
        let text = String(decoding: (try? JSONSerialization.data(withJSONObject: body)) ?? Data(), as: UTF8.self)
        return !text.contains(victimRetentionRule) && (status != 200 || !text.contains(victimMessage))
    }

    /// Any answer but one that shows B's paywall.
    static let withoutVictimCopy: @Sendable (Int, [String: Any]) -> Bool = { _, body in
        let text = String(decoding: (try? JSONSerialization.data(withJSONObject: body)) ?? Data(), as: UTF8.self)
        return !text.contains(victimCopy)
    }
}
