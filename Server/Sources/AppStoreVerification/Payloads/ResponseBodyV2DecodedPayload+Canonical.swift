import AppStoreModels

extension ResponseBodyV2DecodedPayload: CanonicalPayload {
    /// Reads a notification payload whose fields are all in canonical form (see ``CanonicalPayload``), its
    /// `data` included; one with a `summary`, an `externalPurchaseToken` or `appData` is left to `JSONDecoder`.
    init?(canonical members: [(String, JSONValue)]) {
        var reader = CanonicalFieldReader()
        var type: NotificationTypeV2?, uuid: String?
        var payload = ResponseBodyV2DecodedPayload(notificationType: .test, notificationUUID: "")
        for (key, value) in members {
            switch key {
            case "notificationType": type = reader.open(value, as: NotificationTypeV2.self)
            case "subtype": payload.subtype = reader.open(value, as: NotificationSubtype.self)
            case "notificationUUID": uuid = reader.string(value)
            case "version": payload.version = reader.string(value)
            case "signedDate": payload.signedDate = reader.date(value)
            case "data":
                switch value {
                case .object(let fields):
                    guard let data = NotificationData(canonical: fields) else { return nil }
                    payload.data = data
                case .null: continue
                default: return nil
                }
            case "summary", "externalPurchaseToken", "appData":
                guard case .null = value else { return nil }
            default: continue
            }
        }
        guard reader.isCanonical, let type, let uuid else { return nil }
        payload.notificationType = type
        payload.notificationUUID = uuid
        self = payload
    }
}

extension NotificationData {
    /// Reads a notification's `data` whose fields are all in canonical form.
    init?(canonical members: [(String, JSONValue)]) {
        var reader = CanonicalFieldReader()
        var data = NotificationData()
        for (key, value) in members {
            switch key {
            case "environment": data.environment = reader.open(value, as: AppStoreEnvironment.self)
            case "appAppleId": data.appAppleId = reader.integer(value)
            case "bundleId": data.bundleId = reader.string(value)
            case "bundleVersion": data.bundleVersion = reader.string(value)
            case "signedTransactionInfo": data.signedTransactionInfo = reader.string(value)
            case "signedRenewalInfo": data.signedRenewalInfo = reader.string(value)
            case "status": data.status = reader.open(value, as: SubscriptionStatus.self)
            case "consumptionRequestReason":
                data.consumptionRequestReason = reader.open(value, as: ConsumptionRequestReason.self)
            default: continue
            }
        }
        guard reader.isCanonical else { return nil }
        self = data
    }
}
