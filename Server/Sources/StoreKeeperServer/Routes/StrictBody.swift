import StoreKeeperAPI

/// A request body of the API: its fields are the only ones the endpoint accepts.
protocol RequestBody: Decodable {
    /// The body's wire names.
    associatedtype Fields: CodingKey & CaseIterable
}

extension ReceiptPost: RequestBody { typealias Fields = CodingKeys }
extension TransactionPost: RequestBody { typealias Fields = CodingKeys }
extension AliasPost: RequestBody { typealias Fields = CodingKeys }
extension OfferSignatureRequest: RequestBody { typealias Fields = CodingKeys }
extension WebhookEndpointPost: RequestBody { typealias Fields = CodingKeys }
extension ImportPost: RequestBody { typealias Fields = CodingKeys }
extension Offering: RequestBody { typealias Fields = CodingKeys }
extension OfferingPut: RequestBody { typealias Fields = CodingKeys }
extension CurrentOfferingPut: RequestBody { typealias Fields = CodingKeys }
extension TargetingRules: RequestBody { typealias Fields = CodingKeys }
extension ExperimentPost: RequestBody { typealias Fields = CodingKeys }
extension AttributesPost: RequestBody { typealias Fields = CodingKeys }
extension RetentionRules: RequestBody { typealias Fields = CodingKeys }

/// A request body decoded strictly: its keys are checked against the body's fields before the body itself is
/// decoded from the same decoder.
struct StrictBody<Body: RequestBody>: Decodable {
    let body: Body

    init(from decoder: any Decoder) throws {
        let fields = Body.Fields.allCases.map(\.stringValue)
        let keys = try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue)
        if let unknown = keys.filter({ !fields.contains($0) }).sorted().first {
            throw UnknownField(name: unknown, expected: fields.sorted())
        }
        body = try Body(from: decoder)
    }

    /// Any key, to list what the object holds.
    struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

/// A request field the endpoint does not define.
struct UnknownField: Error {
    let name: String
    let expected: [String]
}
