import Foundation
import NIOHTTP1
import StoreKeeperAPI
import StoreKeeperServer
import TestDatabaseSupport
import TestSupport
import Testing

/// Every answer is the one `/openapi.json` describes: each `/v1` route, called by its own project's keys with
/// the matrix's requests (``CrossTenantTests/attacks(_:_:)``), answers a status the route documents, and each JSON
/// body — success and error alike — validates against the schema the document gives that status
/// (``OpenAPIAnswerValidator``). The cross-tenant matrix holds the refusals to the same document.
@Suite struct DocumentedAnswerTests {
    /// Routes no owner's call of the matrix's can bring to success here, each with why.
    static let unreachable: [String: String] = [
        "POST /v1/offers/sign": "the tenant apps have no promotional offer key",
        "POST /v1/notifications": "Apple's signed notification belongs to the other project's app",
        "POST /v1/retention/appstore":
            "the tenant apps have no Apple app id to route Apple's request by; RetentionEndToEndTests and Apple's library check those answers",
        "POST /v1/extensions": "the test apps have no App Store Server API credentials",
        "GET /v1/extensions/{id}": "no mass extension can be made without credentials",
        "POST /v1/subscribers/{app_user_id}/subscriptions/{original_transaction_id}/extend":
            "the test apps have no App Store Server API credentials",
        "POST /v1/subscribers/{app_user_id}/subscriptions/{original_transaction_id}/app-account-token":
            "the test apps have no App Store Server API credentials",
    ]

    @Test(
        "every route's answers to its own project validate against the served document, successes included",
        arguments: TestDatabases.backends)
    func ownersAnswers(_ backend: String) async throws {
        try await TenantServers.with(backend) { servers in
            let ground = try await CrossTenantTests.prepare(servers)
            let validator = try OpenAPIAnswerValidator()
            var succeeded: Set<String> = []
            var checked = 0
            // First the owner's calls the matrix's requests (written for another project's keys) cannot make: a
            // new offering and experiment, and the webhook endpoint's own log.
            let experiment =
                #"{"identifier":"owner-exp","variants":[{"identifier":"x","offering_id":"owner-offer","weight":50},{"identifier":"y","offering_id":"owner-offer","weight":50}]}"#
            let calls: [(APIEndpoint, String, String?, String?)] = [
                (
                    .postOffering, "v1/offerings", TenantServers.secretB,
                    #"{"identifier":"owner-offer","packages":[{"identifier":"m","product_id":"premium.monthly"}]}"#
                ),
                (.postExperiment, "v1/experiments", TenantServers.secretB, experiment),
                (.stopExperiment, "v1/experiments/victim-exp/stop", TenantServers.secretB, nil),
                (.startExperiment, "v1/experiments/owner-exp/start", TenantServers.secretB, nil),
                (.stopExperiment, "v1/experiments/owner-exp/stop", TenantServers.secretB, nil),
                (.getWebhookDeliveries, "v1/webhooks/\(ground.victimEndpoint)/deliveries", TenantServers.secretB, nil),
                (.postWebhookTest, "v1/webhooks/\(ground.victimEndpoint)/test", TenantServers.secretB, nil),
                (
                    .postRedeliver, "v1/webhooks/deliveries/\(ground.victimDelivery)/redeliver", TenantServers.secretB,
                    nil
                ),
                (.deleteOffering, "v1/offerings/owner-offer", TenantServers.secretB, nil),
            ]
            for (endpoint, path, key, body) in calls {
                let route = try #require(
                    APIRoute.all.first {
                        $0.endpoint.pattern == endpoint.pattern && $0.endpoint.method == endpoint.method
                    })
                let (status, data, contentType) = try await servers.client.exchange(
                    NIOHTTP1.HTTPMethod(rawValue: route.method.rawValue), "/" + path, key: key,
                    body: body.map { Data($0.utf8) })
                let problems = validator.problems(route, status: status, body: data, contentType: contentType)
                #expect(problems.isEmpty, "\(route): \(problems)")
                #expect((200..<300).contains(status), "\(route): \(status) \(String(decoding: data, as: UTF8.self))")
                if (200..<300).contains(status) { succeeded.insert(route.description) }
            }
            for route in APIRoute.all {
                for attack in CrossTenantTests.attacks(route, ground) {
                    for key in [TenantServers.publicB, TenantServers.secretB] {
                        let (status, data, contentType) = try await CrossTenantTests.send(
                            attack, on: route, key: key, servers)
                        let problems = validator.problems(route, status: status, body: data, contentType: contentType)
                        #expect(
                            problems.isEmpty,
                            "\(route) \(attack.name): \(problems) \(String(decoding: data.prefix(300), as: UTF8.self))")
                        if (200..<300).contains(status) { succeeded.insert(route.description) }
                        checked += 1
                    }
                }
            }
            #expect(checked >= APIRoute.all.count * 2)
            let missing = Set(APIRoute.all.map(\.description)).subtracting(succeeded).subtracting(
                Self.unreachable.keys)
            #expect(missing.isEmpty, "routes no call brought to success: \(missing.sorted())")
        }
    }
}
