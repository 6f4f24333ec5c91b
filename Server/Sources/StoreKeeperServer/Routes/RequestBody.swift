import StoreKeeperAPI

/// A request body of the API, read by ``APICall/decode(_:)``: the fields its type reads are the only ones the
/// endpoint accepts (``StrictJSONDecoder``).
protocol RequestBody: Decodable {}

extension ReceiptPost: RequestBody {}
extension TransactionPost: RequestBody {}
extension AliasPost: RequestBody {}
extension OfferSignatureRequest: RequestBody {}
extension WebhookEndpointPost: RequestBody {}
extension ImportPost: RequestBody {}
extension Offering: RequestBody {}
extension OfferingPut: RequestBody {}
extension CurrentOfferingPut: RequestBody {}
extension TargetingRules: RequestBody {}
extension ExperimentPost: RequestBody {}
extension AttributesPost: RequestBody {}
extension RetentionRules: RequestBody {}
extension GrantPost: RequestBody {}
extension ExtensionPost: RequestBody {}
extension AppAccountTokenPost: RequestBody {}
extension MassExtensionPost: RequestBody {}
