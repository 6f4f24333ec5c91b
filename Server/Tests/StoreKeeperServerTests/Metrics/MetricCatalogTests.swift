import Foundation
import StoreKeeperServer
import SubscriptionMetrics
import TestSupport
import Testing

/// Every metric the accumulator computes is offered by the API's contract and defined for its users: the OpenAPI
/// document lists exactly `MetricName`'s names, in its order, once (the path parameter and `MetricResponse.name`
/// refer to that component), and docs/metrics.md has a definition row for each.
@Suite struct MetricCatalogTests {
    @Test func theOpenAPIDocumentAndTheDocsNameEveryMetric() throws {
        let text = String(decoding: OpenAPIDocument.bytes, as: UTF8.self)
        let names = MetricName.allCases.map(\.rawValue)
        var lists: [[String]] = []
        func walk(_ value: Any) {
            if let object = value as? [String: Any] {
                if let list = object["enum"] as? [String], list.contains("mrr") { lists.append(list) }
                object.values.forEach(walk)
            } else if let array = value as? [Any] {
                array.forEach(walk)
            }
        }
        walk(try JSONSerialization.jsonObject(with: Data(text.utf8)))
        #expect(lists.count == 1, "one list, the component MetricName the path and MetricResponse.name refer to")
        #expect(lists.allSatisfy { $0 == names }, "\(lists)")
        let docs = try String(
            contentsOf: Fixtures.repositoryRoot.appendingPathComponent("docs/metrics.md"), encoding: .utf8)
        let undefined = names.filter { !docs.contains("| `\($0)` |") }
        #expect(undefined.isEmpty, "no definition row in docs/metrics.md: \(undefined)")
    }
}
