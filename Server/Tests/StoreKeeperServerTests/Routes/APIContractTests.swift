import AsyncHTTPClient
import Foundation
import NIOCore
import StoreKeeperAPI
import StoreKeeperServer
import TestSupport
import Testing

/// `/openapi.json` and the `StoreKeeperAPI` types describe one contract: every schema is a type of the same
/// name with exactly the same properties, every API type has its schema, and the documented paths, generated
/// from the router's catalog, are that catalog with each route's parameters and access.
@Suite struct APIContractTests {
    /// Each API type's wire names, by type name.
    static let types: [String: [String]] = [
        "AliasPost": AliasPost.CodingKeys.allCases.map(\.stringValue),
        "EligibilityResponse": EligibilityResponse.CodingKeys.allCases.map(\.stringValue),
        "Entitlement": Entitlement.CodingKeys.allCases.map(\.stringValue),
        "ErrorBody": ErrorBody.CodingKeys.allCases.map(\.stringValue),
        "ErrorDetail": ErrorDetail.CodingKeys.allCases.map(\.stringValue),
        "EventFeedResponse": EventFeedResponse.CodingKeys.allCases.map(\.stringValue),
        "EventsResponse": EventsResponse.CodingKeys.allCases.map(\.stringValue),
        "ImportPost": ImportPost.CodingKeys.allCases.map(\.stringValue),
        "MetricPoint": MetricPoint.CodingKeys.allCases.map(\.stringValue),
        "MetricResponse": MetricResponse.CodingKeys.allCases.map(\.stringValue),
        "MetricSeriesBody": MetricSeriesBody.CodingKeys.allCases.map(\.stringValue),
        "NotificationReceipt": NotificationReceipt.CodingKeys.allCases.map(\.stringValue),
        "AttributesPost": AttributesPost.CodingKeys.allCases.map(\.stringValue),
        "AttributesResponse": AttributesResponse.CodingKeys.allCases.map(\.stringValue),
        "Comparison": Comparison.CodingKeys.allCases.map(\.stringValue),
        "Experiment": Experiment.CodingKeys.allCases.map(\.stringValue),
        "ExperimentAssignment": ExperimentAssignment.CodingKeys.allCases.map(\.stringValue),
        "ExperimentPost": ExperimentPost.CodingKeys.allCases.map(\.stringValue),
        "ExperimentResults": ExperimentResults.CodingKeys.allCases.map(\.stringValue),
        "ExperimentVariant": ExperimentVariant.CodingKeys.allCases.map(\.stringValue),
        "ExperimentsResponse": ExperimentsResponse.CodingKeys.allCases.map(\.stringValue),
        "VariantResults": VariantResults.CodingKeys.allCases.map(\.stringValue),
        "CurrentOfferingPut": CurrentOfferingPut.CodingKeys.allCases.map(\.stringValue),
        "Offering": Offering.CodingKeys.allCases.map(\.stringValue),
        "OfferingPackage": OfferingPackage.CodingKeys.allCases.map(\.stringValue),
        "OfferingPut": OfferingPut.CodingKeys.allCases.map(\.stringValue),
        "OfferingsResponse": OfferingsResponse.CodingKeys.allCases.map(\.stringValue),
        "OfferSignature": OfferSignature.CodingKeys.allCases.map(\.stringValue),
        "OfferSignatureRequest": OfferSignatureRequest.CodingKeys.allCases.map(\.stringValue),
        "ProjectEvent": ProjectEvent.CodingKeys.allCases.map(\.stringValue),
        "Purchase": Purchase.CodingKeys.allCases.map(\.stringValue),
        "ReceiptPost": ReceiptPost.CodingKeys.allCases.map(\.stringValue),
        "SearchResponse": SearchResponse.CodingKeys.allCases.map(\.stringValue),
        "Grant": Grant.CodingKeys.allCases.map(\.stringValue),
        "AuditLogEntry": AuditLogEntry.CodingKeys.allCases.map(\.stringValue),
        "AuditLogResponse": AuditLogResponse.CodingKeys.allCases.map(\.stringValue),
        "GrantPost": GrantPost.CodingKeys.allCases.map(\.stringValue),
        "ExtensionPost": ExtensionPost.CodingKeys.allCases.map(\.stringValue),
        "AppAccountTokenPost": AppAccountTokenPost.CodingKeys.allCases.map(\.stringValue),
        "MassExtensionPost": MassExtensionPost.CodingKeys.allCases.map(\.stringValue),
        "MassExtension": MassExtension.CodingKeys.allCases.map(\.stringValue),
        "AppAccountTokenChange": AppAccountTokenChange.CodingKeys.allCases.map(\.stringValue),
        "RenewalExtension": RenewalExtension.CodingKeys.allCases.map(\.stringValue),
        "GrantRevocationResponse": GrantRevocationResponse.CodingKeys.allCases.map(\.stringValue),
        "SubscriberExport": SubscriberExport.CodingKeys.allCases.map(\.stringValue),
        "ExportedEvidence": ExportedEvidence.CodingKeys.allCases.map(\.stringValue),
        "ErasureResponse": ErasureResponse.CodingKeys.allCases.map(\.stringValue),
        "SearchResult": SearchResult.CodingKeys.allCases.map(\.stringValue),
        "Subscriber": Subscriber.CodingKeys.allCases.map(\.stringValue),
        "SubscriberEvent": SubscriberEvent.CodingKeys.allCases.map(\.stringValue),
        "SubscriberListResponse": SubscriberListResponse.CodingKeys.allCases.map(\.stringValue),
        "SubscriberResponse": SubscriberResponse.CodingKeys.allCases.map(\.stringValue),
        "SubscriberSummary": SubscriberSummary.CodingKeys.allCases.map(\.stringValue),
        "Subscription": Subscription.CodingKeys.allCases.map(\.stringValue),
        "SubscriptionOffer": SubscriptionOffer.CodingKeys.allCases.map(\.stringValue),
        "SubscriptionCommitment": SubscriptionCommitment.CodingKeys.allCases.map(\.stringValue),
        "RetentionConditions": RetentionConditions.CodingKeys.allCases.map(\.stringValue),
        "RetentionResponse": RetentionResponse.CodingKeys.allCases.map(\.stringValue),
        "RetentionRule": RetentionRule.CodingKeys.allCases.map(\.stringValue),
        "RetentionRules": RetentionRules.CodingKeys.allCases.map(\.stringValue),
        "TargetingConditions": TargetingConditions.CodingKeys.allCases.map(\.stringValue),
        "TargetingDayRange": TargetingDayRange.CodingKeys.allCases.map(\.stringValue),
        "TargetingRule": TargetingRule.CodingKeys.allCases.map(\.stringValue),
        "TargetingRules": TargetingRules.CodingKeys.allCases.map(\.stringValue),
        "TargetingVersionRange": TargetingVersionRange.CodingKeys.allCases.map(\.stringValue),
        "TransactionPost": TransactionPost.CodingKeys.allCases.map(\.stringValue),
        "WebhookDeliveriesResponse": WebhookDeliveriesResponse.CodingKeys.allCases.map(\.stringValue),
        "WebhookDelivery": WebhookDelivery.CodingKeys.allCases.map(\.stringValue),
        "WebhookEndpoint": WebhookEndpoint.CodingKeys.allCases.map(\.stringValue),
        "WebhookEndpointPost": WebhookEndpointPost.CodingKeys.allCases.map(\.stringValue),
        "WebhookEndpointsResponse": WebhookEndpointsResponse.CodingKeys.allCases.map(\.stringValue),
        "WebhookEvent": WebhookEvent.CodingKeys.allCases.map(\.stringValue),
    ]

    static func document() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.bytes)) as? [String: Any])
    }

    @Test("every schema is the API type of its name, property for property, and every type is documented")
    func schemasAreTypes() throws {
        let schemas = try #require(
            (try Self.document()["components"] as? [String: Any])?["schemas"] as? [String: [String: Any]])
        // The words a parameter takes from a server enum: their cases, derived, not a type's fields.
        for name in OpenAPIDocument.vocabularyNames {
            #expect((schemas[name]?["enum"] as? [String])?.isEmpty == false, "\(name)")
        }
        for (name, schema) in schemas where !OpenAPIDocument.vocabularyNames.contains(name) {
            let properties = Set((schema["properties"] as? [String: Any] ?? [:]).keys)
            let fields = try #require(Self.types[name], "schema \(name) has no StoreKeeperAPI type")
            #expect(properties == Set(fields), "\(name): documented \(properties.sorted()), type \(fields.sorted())")
        }
        for name in Self.types.keys { #expect(schemas[name] != nil, "\(name) is not documented") }
    }

    @Test("the documented paths are the router's catalog, method for method")
    func pathsAreRoutes() throws {
        let paths = try #require(try Self.document()["paths"] as? [String: [String: Any]])
        let documented = Set(paths.flatMap { path, operations in operations.keys.map { "\($0.uppercased()) \(path)" } })
        #expect(documented == Set(APIRoute.all.map(\.description)))
        #expect(Set(APIRoute.all).count == APIRoute.all.count, "a route declared twice")
    }

    @Test("a route's path parameters are its declaration's, each named in the path and documented with its type")
    func pathParameters() throws {
        let paths = try #require(try Self.document()["paths"] as? [String: [String: [String: Any]]])
        for route in APIRoute.all {
            let names = route.endpoint.pathParameters.map(\.name)
            #expect(
                route.path.split(separator: "/").filter { $0.hasPrefix("{") }.map(String.init)
                    == names.map { "{\($0)}" })
            #expect(route.operation.parameters.allSatisfy { $0.location == .query }, "\(route)")
            let operation = paths[OpenAPIDocument.documentPath(route)]?[route.method.rawValue.lowercased()]
            let documented = (operation?["parameters"] as? [[String: Any]] ?? []).filter {
                $0["in"] as? String == "path"
            }
            #expect(documented.compactMap { $0["name"] as? String } == names, "\(route)")
            #expect(documented.allSatisfy { $0["required"] as? Bool == true && $0["schema"] != nil }, "\(route)")
        }
    }

    @Test("every reference in the document names a component it has")
    func referencesResolve() throws {
        let document = try Self.document()
        let components = try #require(document["components"] as? [String: [String: Any]])
        var references: [String] = []
        func walk(_ value: Any) {
            if let object = value as? [String: Any] {
                if let reference = object["$ref"] as? String { references.append(reference) }
                object.values.forEach(walk)
            } else if let array = value as? [Any] {
                array.forEach(walk)
            }
        }
        walk(document)
        #expect(references.count > APIRoute.all.count)
        for reference in Set(references) {
            let parts = reference.split(separator: "/").map(String.init)
            #expect(parts.count == 4 && parts[0] == "#" && parts[1] == "components", "\(reference)")
            guard parts.count == 4 else { continue }
            #expect(components[parts[2]]?[parts[3]] != nil, "\(reference) names no component")
        }
    }

    @Test("the document states each route's access: none for Apple's, either key for public, the secret key else")
    func securityFollowsAccess() throws {
        let paths = try #require(try Self.document()["paths"] as? [String: [String: [String: Any]]])
        for route in APIRoute.all {
            let operation = try #require(
                paths[OpenAPIDocument.documentPath(route)]?[route.method.rawValue.lowercased()], "\(route)")
            let schemes = (operation["security"] as? [[String: Any]] ?? []).flatMap(\.keys).sorted()
            let expected: [String] =
                switch route.access {
                case .apple: []
                case .publicKey: ["publicKey", "secretKey"]
                case .secretKey: ["secretKey"]
                }
            #expect(schemes == expected, "\(route)")
        }
    }

    @Test("APIPath builds the paths the router serves, one segment per id")
    func pathsBuilt() {
        #expect(APIPath.subscriber("a/b c") == "/v1/subscribers/a%2Fb%20c")
        #expect(
            APIPath.eligibility("u", productIDs: ["p.1", "p 2"])
                == "/v1/subscribers/u/eligibility?product_ids=p.1,p%202")
        #expect(APIPath.alias("u") == "/v1/subscribers/u/alias" && APIPath.events("u") == "/v1/subscribers/u/events")
        #expect(APIPath.receipts == "/v1/receipts" && APIPath.transactions == "/v1/transactions")
    }

    /// A raw answer's status and body.
    static func raw(_ base: String, _ path: String, key: String) async throws -> (Int, Data) {
        var request = HTTPClientRequest(url: base + path)
        request.headers.add(name: "Authorization", value: "Bearer \(key)")
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        return (Int(response.status.code), Data(buffer: try await response.body.collect(upTo: 8 << 20)))
    }

    @Test("the server's answers decode as the API types, with the values the server meant")
    func answersDecode() async throws {
        try await TenantServers.with("sqlite") { servers in
            _ = try await CrossTenantTests.prepare(servers)
            let base = servers.client.base
            let decoder = APICoding.decoder()
            let (_, subscriberBody) = try await Self.raw(base, APIPath.subscriber("victim"), key: TenantServers.publicB)
            let subscriber = try decoder.decode(SubscriberResponse.self, from: subscriberBody).subscriber
            #expect(subscriber.appUserID == "victim" && subscriber.aliases == ["victim-device"])
            #expect(
                subscriber.subscriptions.first?.status == "active"
                    && subscriber.subscriptions.first?.offer?.kind == "freeTrial")
            #expect(
                subscriber.entitlements.first?.identifier == "pro" && subscriber.entitlements.first?.expiresAt != nil)
            let (_, eventsBody) = try await Self.raw(base, APIPath.events("victim"), key: TenantServers.secretB)
            #expect(
                try decoder.decode(EventsResponse.self, from: eventsBody).events.contains {
                    $0.type == "receipt_posted"
                })
            let (_, eligibilityBody) = try await Self.raw(
                base, APIPath.eligibility("victim", productIDs: ["premium.monthly"]), key: TenantServers.publicB)
            #expect(
                try decoder.decode(EligibilityResponse.self, from: eligibilityBody).eligibility["premium.monthly"]
                    == "ineligible")
            let (status, errorBody) = try await Self.raw(base, APIPath.events("victim"), key: TenantServers.publicB)
            #expect(status == 403)
            #expect(try decoder.decode(ErrorBody.self, from: errorBody).error.code == .secretKeyRequired)
        }
    }
}
