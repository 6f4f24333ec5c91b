import AppStoreModels
import Foundation
import StoreKeeperAPI
import StoreKeeperStorage
import StoreKeeperWire
import SubscriptionEngine

/// The body of every call that returns a subscriber. The `subscriber` object (``StoreKeeperAPI/Subscriber``) is
/// encoded once per stored row and engine answer and kept (``SubscriberDocumentCache``); the response wraps those
/// bytes with the server's clock.
enum SubscriberDocument {
    /// The API's JSON (``StoreKeeperAPI/APICoding``), for a document ``JSONWriter`` cannot be sure to write.
    static let encoder = APICoding.encoder()

    /// The encoded `subscriber` object.
    static func encode(appUserID: String, aliases: [String], firstSeen: Date?, state: CustomerState) throws -> [UInt8] {
        let subscriber = Subscriber(appUserID: appUserID, aliases: aliases, firstSeen: firstSeen, state: state)
        return try JSONWriter.exactJSON(subscriber) ?? Array(encoder.encode(subscriber))
    }

    /// The whole response body: `{"attributes"?, "request_date", "request_date_ms", "subscriber"}` around an
    /// encoded subscriber.
    /// - Parameters:
    ///   - subscriber: The encoded `subscriber` object.
    ///   - attributes: The customer's attributes (left out when there are none).
    ///   - instant: The server's clock at the request.
    /// - Returns: The JSON body.
    static func response(subscriber: [UInt8], attributes: [String: String] = [:], at instant: Date) -> [UInt8] {
        var body: [UInt8] = []
        body.reserveCapacity(subscriber.count + 96)
        body.append(UInt8(ascii: "{"))
        if !attributes.isEmpty, let object = try? APICoding.encoder().encode(attributes) {
            body += Array("\"attributes\":".utf8) + Array(object) + [UInt8(ascii: ",")]
        }
        body += Array(
            "\"request_date\":\"\(AppleDateFormat.rfc3339(instant))\",\"request_date_ms\":\(AppleDateFormat.milliseconds(instant)),\"subscriber\":"
                .utf8)
        body += subscriber
        body.append(UInt8(ascii: "}"))
        return body
    }
}
